/*
 * lh_qt.c — exact per-object layout counting in Qt 5 and Qt 6 (Widgets and Quick), Qt's frames, and
 * the life of its objects.
 *
 * Qt is linked with -Bsymbolic-functions: its calls inside one library skip the PLT, so most of its
 * layout is invisible to interposition. What is seen, and how:
 *   - Every event Qt delivers (sent or posted, any QObject) passes through the virtual
 *     QCoreApplication::notify of the one application object. Its class's vtable slot is pointed at
 *     a wrapper (once the application object is made: its constructors are hook rows), which counts
 *     a QWidget's Resize (its geometry set) and LayoutRequest (its layout activated) as layouts of
 *     the widget, makes the delivery "in layout" (lh_cause.h), ends a frame of a QQuickWindow after
 *     its UpdateRequest (Quick polishes, synchronises and renders there), and runs a scheduled call
 *     with the cause it was scheduled with (lh_qt_causes.c).
 *   - Virtual functions of the classes that lay out are wrapped per class, in the vtable of every
 *     class that has an instance: QQuickItem::updatePolish (a polish) and geometryChange (Qt 6) /
 *     geometryChanged (Qt 5), QLayout::setGeometry (in the QLayout vtable and in its QLayoutItem
 *     vtable, through which a parent layout calls it). One wrapper per original function
 *     (lh_vfunc_pools.h), so a chain-up reaches the base's wrapper only when it goes through the
 *     vtable (Qt's own chain-ups are direct calls). The slot indices are found in the base classes'
 *     own vtables (where the base's function sits), not hard-coded.
 *   - Which classes have instances: Qt's hook data for introspection tools (qtHookData, public ABI
 *     since Qt 5.4: the AddQObject and RemoveQObject callbacks, chained to whatever was there). An
 *     object made on the GUI thread is noted, and looked at when its constructor is long over (at the
 *     next loop iteration, or before the next layout or frame): its class is told from the run-time
 *     type information of its vtable (typeinfo of QWidget, QLayout, QQuickItem, QQuickWindow,
 *     QWindow among its bases), read through lh_read_memory, so an object already gone cannot make
 *     us fault; nothing of the object is called. A destroyed object's counts are forgotten (a new
 *     object at its address is another).
 *   - Frames: a QQuickWindow's are its UpdateRequests; widgets have none, so their frames are the
 *     GUI thread's loop iterations (one clock per GUI thread): a widget loop keeps the loop from ever
 *     sleeping, each iteration laying out again what the last one requested.
 *
 * Contracts: the wrappers and callbacks run on Qt's threads inside Qt's event delivery, layout and
 * object construction: no allocation of our own, no lock anything waits on (class patching is one
 * thread's at a time through a try-flag; a thread that finds it taken leaves the class for a later
 * look), errno kept (the guard), every argument and result forwarded untouched. A vtable slot is one
 * aligned pointer store; a read-only vtable page is made writable for the store and read-only again
 * (only when the kernel says it is read-only: process_vm_writev of the slot's own value).
 */
#define _GNU_SOURCE
#include "lh_qt.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lh_cause.h"
#include "lh_io.h"
#include "lh_layout.h"
#include "lh_relayout.h"
#include "lh_script.h"
#include "lh_symbols.h"
#include "lh_vfunc_pools.h"

/* ---- state ---------------------------------------------------------------------------------- */

enum { QT_UNKNOWN = 0, QT_PROBING = 1, QT_ON = 2, QT_OFF = 3 };

static lh_qt_api api;
static _Atomic int state;                  /* QT_*; release/acquire publishes `api` and the slots */
static _Atomic int patching;               /* try-flag around vtable patching */
static char off_reason[160];
static uintptr_t *hook_data;               /* qtHookData */
static void (*next_add)(void *object), (*next_remove)(void *object); /* what was in qtHookData */
static const void *widgets_clock;          /* the clock of the GUI thread's widgets (the application object) */
static __thread bool gui_thread __attribute__((tls_model("initial-exec"))); /* this thread made the application */
static bool laid_out;                      /* a widget was laid out in the GUI thread's iteration (owner-only) */
__thread lh_qt_delivery lh_qt_delivering __attribute__((tls_model("initial-exec")));
static uint64_t resolved_generation;       /* the modules' generation when Qt's modules were last looked at */
static bool resolve_modules(void);
static void qml_capture(lh_script_stack *out);

/* The vtable slots wrapped (indices from a vptr; -1: unknown, not wrapped). */
static int notify_slot = -1, polish_slot = -1, geometry_slot = -1, layout_slot = -1, layout_item_slot = -1;

/* The vtables of the C++ ABI's type_info classes (what a class's typeinfo object points at). */
static const void *ti_single, *ti_multiple;

/* Qt's event types (QEvent::Type, the same in Qt 5 and 6). */
enum { QE_TIMER = 1, QE_RESIZE = 14, QE_META_CALL = 43, QE_LAYOUT_REQUEST = 76, QE_UPDATE_REQUEST = 77,
       /* QQmlTimer's own events (qqmltimer.cpp): a repeating Timer's tick, a single-shot Timer's end */
       QE_QML_TIMER_TICK = 1001, QE_QML_TIMER_TRIGGERED = 1002 };

/* Statistics for the summary (relaxed counters). */
static _Atomic uint64_t classes_seen, classes_patched, slots_patched, slots_unwritable, pool_exhausted;
static _Atomic uint64_t objects_noted, objects_dropped, objects_looked_at, objects_forgotten, quick_frames, widget_frames;
static _Atomic uint64_t patch_skipped_busy, notify_patched;

bool lh_qt_gui_thread(void) { return gui_thread; }

const lh_qt_api *lh_qt(void) {
    /* acquire: pairs with the release that publishes `api`. */
    return lh_load_acquire(&state) == QT_ON ? &api : NULL;
}

/* ---- what an object is: its class's run-time type information ----------------------------------- */

static bool read_word(const void *at, const void **out) { return lh_read_memory(out, at, sizeof *out); }

/* Whether the class of typeinfo `ti` is, or derives from, the class whose mangled name is `name`
 * ("7QWidget"). Every read goes through lh_read_memory: a wrong pointer fails, never faults. */
static bool derives(const void *ti, const char *name, size_t name_len, int depth) {
    const void *kind, *text;
    if (ti == NULL || depth > 24 || !read_word(ti, &kind) || !read_word((const char *)ti + 8, &text) || text == NULL) return false;
    char buf[48];
    if (name_len + 2 <= sizeof buf && lh_read_memory(buf, text, name_len + 2)) {
        const char *n = buf[0] == '*' ? buf + 1 : buf; /* '*': a class with internal linkage */
        if (memcmp(n, name, name_len) == 0 && n[name_len] == '\0') return true;
    } else if (name_len + 1 <= sizeof buf && lh_read_memory(buf, text, name_len + 1)) {
        if (memcmp(buf, name, name_len) == 0 && buf[name_len] == '\0') return true;
    }
    if (kind == ti_single) {
        const void *base;
        return read_word((const char *)ti + 16, &base) && derives(base, name, name_len, depth + 1);
    }
    if (kind == ti_multiple) {
        uint32_t count = 0;
        if (!lh_read_memory(&count, (const char *)ti + 20, sizeof count)) return false;
        for (uint32_t i = 0; i < count && i < 16; i++) {
            const void *base;
            if (read_word((const char *)ti + 24 + 16 * i, &base) && derives(base, name, name_len, depth + 1)) return true;
        }
    }
    return false;
}

#define DERIVES(ti, literal) derives((ti), (literal), sizeof(literal) - 1, 0)

static int kind_of_class(const void *vptr) {
    const void *ti;
    if (!read_word((const char *)vptr - sizeof(void *), &ti) || ti == NULL) return LH_QT_OTHER;
    if (DERIVES(ti, "12QQuickWindow")) return LH_QT_QUICK_WINDOW;
    if (DERIVES(ti, "7QWindow")) return LH_QT_WINDOW;
    if (DERIVES(ti, "10QQuickItem")) return LH_QT_ITEM;
    if (DERIVES(ti, "7QWidget")) return LH_QT_WIDGET;
    if (DERIVES(ti, "7QLayout")) return LH_QT_LAYOUT;
    return LH_QT_OTHER;
}

/* Classes told apart so far: vptr -> kind, and whether its vtable was patched. Open addressing;
 * entries are claimed with compare-and-swap on the key (any thread), the value stored after
 * (release: a reader that sees it sees a complete entry). */
#define CLASSES 4096
#define PATCHED 0x100
static struct {
    _Atomic(const void *) vptr;
    _Atomic int value; /* kind | PATCHED; 0: being filled */
} classes[CLASSES] LH_LARGE_TABLE(qt_classes);

static size_t class_home(const void *vptr) { return (size_t)(((uintptr_t)vptr >> 3) * UINT64_C(0x9E3779B97F4A7C15) >> 52) % CLASSES; }

static _Atomic int *class_entry(const void *vptr, bool claim) {
    size_t h = class_home(vptr);
    for (size_t i = 0; i < 64; i++) {
        size_t at = (h + i) % CLASSES;
        const void *k = lh_load_acquire(&classes[at].vptr); /* acquire: pairs with the claim below */
        if (k == vptr) return &classes[at].value;
        if (k != NULL) continue;
        if (!claim) return NULL;
        const void *expected = NULL;
        /* acq_rel: our claim is seen before our value; a lost race sees the winner's key. */
        if (lh_cas_acq_rel_both(&classes[at].vptr, &expected, vptr) || expected == vptr) return &classes[at].value;
    }
    return NULL;
}

static int class_value(const void *vptr) {
    _Atomic int *v = class_entry(vptr, false);
    return v != NULL ? lh_load_acquire(v) : 0; /* acquire: pairs with the release in remember_class */
}

static void remember_class(const void *vptr, int value) {
    _Atomic int *v = class_entry(vptr, true);
    if (v != NULL) lh_store_release(v, value); /* release: see class_value */
}

int lh_qt_kind(const void *object) {
    if (object == NULL) return LH_QT_OTHER;
    const void *vptr = *(const void *const *)object; /* alive: the caller was just given it by Qt */
    int v = class_value(vptr);
    if (v != 0) return v & 0xff;
    int kind = kind_of_class(vptr);
    lh_add_relaxed(&classes_seen, 1); /* stat */
    remember_class(vptr, kind);
    return kind;
}

/* ---- counting ----------------------------------------------------------------------------------- */

#define SKIPPED ((lh_slot *)1)

/* One layout of `object` through `hook`; while the call runs, the object's layout is the thread's
 * (its code runs "in layout", its allocations are charged to it). A call that goes through the same
 * object and hook as the layout running (a chain-up through the vtable) is not counted again.
 * Returns the owner to restore, or SKIPPED. */
static inline lh_slot *qt_enter(const void *object, unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (LH_UNLIKELY(t->guard != 0) || !lh_active(LH_FAMILY_LAYOUT)) return SKIPPED;
    lh_slot *outer = t->layout_owner;
    /* relaxed: the owner is a slot of an object this thread is laying out (lh_table.h). */
    if (outer != NULL && lh_load_relaxed(&outer->key) == lh_table_key(object, hook)) return outer; /* a chain-up */
    lh_slot *slot = lh_layout_count_inline(t, hook, object, LH_GEOMETRY_NONE);
    if (slot != NULL) t->layout_owner = slot;
    return outer;
}

static inline void qt_leave(lh_slot *outer) {
    if (outer != SKIPPED) lh_tls_data.layout_owner = outer;
}

/* A layout counted without making the object the thread's layout: a Quick item's geometry changes
 * as a layout's result or as an animation's step alike; only the polish that set it is layout. */
static inline void qt_count(const void *object, unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (LH_UNLIKELY(t->guard != 0) || !lh_active(LH_FAMILY_LAYOUT)) return;
    lh_layout_count_inline(t, hook, object, LH_GEOMETRY_NONE);
}

/* The complete object of a QLayoutItem base subobject: its vtable's offset-to-top. */
static inline void *complete_object(void *sub) {
    const intptr_t *vptr = *(const intptr_t *const *)sub;
    return (char *)sub + vptr[-2];
}

/* ---- the wrappers ------------------------------------------------------------------------------- */

/* Quick items' polishes and geometry changes on this thread, counted or not (a frame that moved it
 * on laid something out; owner-only). */
static __thread uint64_t quick_layouts __attribute__((tls_model("initial-exec")));

/* QQuickItem::updatePolish(): void (QQuickItem *) */
typedef void (*polish_fn)(void *);
#define polish_WRAPPER(i)                                                                           \
    static LH_USED void polish_##i(void *item) {                                                    \
        quick_layouts++;                                                                            \
        lh_slot *outer = qt_enter(item, LH_HOOK_qt_item_polish);                                    \
        ((polish_fn)LH_ORIG(polish, i))(item);                                                      \
        qt_leave(outer);                                                                            \
    }
#define polish_OFFSET(i) LH_POOL_OFFSET(polish, i)
LH_DEFINE_POOL(polish, LH_REP256, LH_POOL_SMALL)

/* The frame clock of the last Quick item laid out at once by a request this iteration (its root
 * window's; owner-only). */
static __thread const void *between_frames_clock __attribute__((tls_model("initial-exec")));

/* A Quick item's geometry set by a callback that layout (or a geometry change) scheduled, outside
 * any layout (a QML function run by Qt.callLater from an onWidthChanged handler, a queued call): a
 * request on the item, laid out at once (its geometry count moves on right after), so judged at
 * the iteration's end rather than at its window's next frame (at_iteration). */
static LH_NOINLINE void geometry_requested(void *item) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_cause_ready()) return;
    LH_GUARDED(t);
    lh_qt_qml_request(item, true);
    lh_relayout_request(t, LH_HOOK_qt_item_geometry, item, LH_HOOK_qt_item_geometry);
    lh_qt_qml_request(item, false);
    between_frames_clock = lh_relayout_clock_of(t, LH_HOOK_qt_item_geometry, item);
}

/* QQuickItem::geometryChange (Qt 6) / geometryChanged (Qt 5): void (QQuickItem *, const QRectF &new,
 * const QRectF &old). The item's change signals are emitted inside it (QQuickItem's own
 * implementation, which every override chains up to): while it runs, the item is the thread's
 * `changing` item, so a call its onWidthChanged handler schedules outside layout is born in a
 * geometry change (lh_cause.h). */
typedef void (*geometry_fn)(void *, const void *, const void *);
#define geometry_WRAPPER(i)                                                                         \
    static LH_USED void geometry_##i(void *item, const void *now, const void *before) {             \
        if (LH_UNLIKELY(lh_cause_tls_data.dispatch != 0) && lh_tls_data.layout_owner == NULL)       \
            geometry_requested(item);                                                               \
        quick_layouts++;                                                                            \
        qt_count(item, LH_HOOK_qt_item_geometry);                                                   \
        const void *outer = lh_cause_tls_data.changing;                                             \
        lh_cause_tls_data.changing = item;                                                          \
        ((geometry_fn)LH_ORIG(geometry, i))(item, now, before);                                     \
        lh_cause_tls_data.changing = outer;                                                         \
    }
#define geometry_OFFSET(i) LH_POOL_OFFSET(geometry, i)
LH_DEFINE_POOL(geometry, LH_REP512, LH_POOL_LARGE)

/* QLayout::setGeometry(const QRect &) through the QLayout vtable: void (QLayout *, const QRect *) */
typedef void (*set_geometry_fn)(void *, const void *);
#define lgeom_WRAPPER(i)                                                                            \
    static LH_USED void lgeom_##i(void *layout, const void *rect) {                                 \
        lh_slot *outer = qt_enter(layout, LH_HOOK_qt_layout_geometry);                              \
        ((set_geometry_fn)LH_ORIG(lgeom, i))(layout, rect);                                         \
        qt_leave(outer);                                                                            \
    }
#define lgeom_OFFSET(i) LH_POOL_OFFSET(lgeom, i)
LH_DEFINE_POOL(lgeom, LH_REP256, LH_POOL_SMALL)

/* The same through the QLayoutItem vtable (a parent layout's call): `this` is the QLayoutItem part
 * of the layout, the original a thunk that moves it back to the whole object. */
#define ligeom_WRAPPER(i)                                                                           \
    static LH_USED void ligeom_##i(void *part, const void *rect) {                                  \
        lh_slot *outer = qt_enter(complete_object(part), LH_HOOK_qt_layout_geometry);               \
        ((set_geometry_fn)LH_ORIG(ligeom, i))(part, rect);                                          \
        qt_leave(outer);                                                                            \
    }
#define ligeom_OFFSET(i) LH_POOL_OFFSET(ligeom, i)
LH_DEFINE_POOL(ligeom, LH_REP256, LH_POOL_SMALL)

/* QCoreApplication::notify(QObject *receiver, QEvent *event): bool. The common event passes after
 * one load and a few compares. */
typedef bool (*notify_fn)(void *, void *, void *);
static bool deliver(notify_fn orig, void *app, void *receiver, void *event, unsigned type);

static inline bool watched_event(unsigned type) {
    if (type == QE_RESIZE || type == QE_LAYOUT_REQUEST || type == QE_UPDATE_REQUEST) return true;
    if (type == QE_META_CALL) return lh_qt_causes_pending() || lh_qt_signals_pending();
    return (type == QE_TIMER || type == QE_QML_TIMER_TICK || type == QE_QML_TIMER_TRIGGERED) && lh_qt_causes_pending();
}

#define notify_WRAPPER(i)                                                                           \
    static LH_USED bool notify_##i(void *app, void *receiver, void *event) {                        \
        notify_fn orig = (notify_fn)LH_ORIG(notify, i);                                             \
        unsigned type = event != NULL ? *(const uint16_t *)((const char *)event + api.event_type_offset) : 0; \
        if (LH_LIKELY(!watched_event(type))) return orig(app, receiver, event);                    \
        return deliver(orig, app, receiver, event, type);                                          \
    }
#define notify_OFFSET(i) LH_POOL_OFFSET(notify, i)
#define LH_REP16_0(M) LH_REP16(M, 0x0)
LH_DEFINE_POOL(notify, LH_REP16_0, 16)

/* ---- the pools ---------------------------------------------------------------------------------- */

enum { P_POLISH, P_GEOMETRY, P_LAYOUT, P_LAYOUT_ITEM, P_NOTIFY, P_COUNT };

static lh_vfunc_pool pools[P_COUNT] = {
    [P_POLISH] = {"QQuickItem::updatePolish", polish_orig, polish_offsets, LH_POOL_SMALL, 0},
    [P_GEOMETRY] = {"QQuickItem::geometryChange", geometry_orig, geometry_offsets, LH_POOL_LARGE, 0},
    [P_LAYOUT] = {"QLayout::setGeometry", lgeom_orig, lgeom_offsets, LH_POOL_SMALL, 0},
    [P_LAYOUT_ITEM] = {"QLayoutItem::setGeometry (of a QLayout)", ligeom_orig, ligeom_offsets, LH_POOL_SMALL, 0},
    [P_NOTIFY] = {"QCoreApplication::notify", notify_orig, notify_offsets, 16, 0},
};

/* The wrapper of `fn` in pool `p` (claimed the first time, under the patching flag). */
static void *wrapper_for(int p, void *fn) {
    void *w = lh_vfunc_pool_wrapper(&pools[p], fn);
    if (w == NULL) lh_add_relaxed(&pool_exhausted, 1); /* stat */
    return w;
}

/* 1: the page of `at` is writable, 0: read-only, -1: not known (the kernel would not say). */
static int page_writable(void **at) {
    if (lh_sandboxed()) return 0;
    void *now = __atomic_load_n(at, __ATOMIC_RELAXED);
    struct iovec local = {&now, sizeof now}, remote = {at, sizeof now};
    int saved = errno;
    ssize_t n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
    int verdict = n == (ssize_t)sizeof now ? 1 : errno == EFAULT ? 0 : -1;
    errno = saved;
    return verdict;
}

/* Stores `value` in the code pointer `slot` (a vtable slot, a meta-object's function), a
 * read-only page made writable for the one aligned store and read-only again. release: what the
 * caller stored for the new code (its original) before the slot points at it. */
static bool store_code_pointer(void **slot, void *value) {
    int writable = page_writable(slot);
    void *page = (void *)((uintptr_t)slot & ~(uintptr_t)4095);
    if (writable < 0 || (writable == 0 && mprotect(page, 4096, PROT_READ | PROT_WRITE) != 0)) {
        lh_add_relaxed(&slots_unwritable, 1); /* stat */
        return false;
    }
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    if (writable == 0) mprotect(page, 4096, PROT_READ);
    return true;
}

/* Points one vtable slot at the wrapper of what it holds (pool `p`). Under the patching flag. */
static bool patch_slot(void **slot, int p) {
    void *fn = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (fn == NULL || lh_is_own_code((uintptr_t)fn)) return false;
    void *w = wrapper_for(p, fn); /* stores the wrapper's original */
    if (w == NULL || !store_code_pointer(slot, w)) return false;
    lh_add_relaxed(&slots_patched, 1); /* stat */
    return true;
}

/* Looks at an object made since: its class, and the class's vtable slots wrapped once. `object`
 * may be gone (every read of it is lh_read_memory). Guard held, GUI thread. */
static void look_at(const void *object) {
    const void *vptr;
    if (!read_word(object, &vptr) || vptr == NULL) return;
    int v = class_value(vptr);
    if (v & PATCHED) return;                 /* the common case: a class looked at before */
    if (!lh_symbol_is_loaded(vptr)) return;  /* not a vtable of a loaded module: an object gone */
    int kind = v != 0 ? (v & 0xff) : kind_of_class(vptr);
    if (v == 0) lh_add_relaxed(&classes_seen, 1); /* stat */
    if (kind != LH_QT_ITEM && kind != LH_QT_LAYOUT) {
        remember_class(vptr, kind | PATCHED); /* nothing to patch */
        return;
    }
    int expected = 0;
    /* acquire: see the pools as the previous patcher left them. */
    if (!lh_cas_acquire(&patching, &expected, 1)) {
        lh_add_relaxed(&patch_skipped_busy, 1); /* stat */
        remember_class(vptr, kind);
        return;
    }
    void **slots = (void **)vptr;
    bool any = false;
    if (kind == LH_QT_ITEM) {
        if (polish_slot >= 0) any |= patch_slot(&slots[polish_slot], P_POLISH);
        if (geometry_slot >= 0) any |= patch_slot(&slots[geometry_slot], P_GEOMETRY);
    } else {
        if (layout_slot >= 0) any |= patch_slot(&slots[layout_slot], P_LAYOUT);
        /* The QLayoutItem part's vtable, read from the object (QLayoutItem follows QObject's 16
         * bytes in every QLayout): it must name the same class. */
        const void *vptr2, *ti, *ti2;
        if (layout_item_slot >= 0 && read_word((const char *)object + 16, &vptr2) && vptr2 != NULL &&
            read_word((const char *)vptr - 8, &ti) && read_word((const char *)vptr2 - 8, &ti2) && ti == ti2)
            any |= patch_slot(&((void **)vptr2)[layout_item_slot], P_LAYOUT_ITEM);
    }
    /* release: our pool bookkeeping to the next patcher. */
    lh_store_release(&patching, 0);
    if (any) lh_add_relaxed(&classes_patched, 1); /* stat */
    remember_class(vptr, kind | PATCHED);
}

/* ---- objects made and destroyed (qtHookData) ----------------------------------------------------- */

/* Qt's hook data (qhooks_p.h, public ABI since 5.4): version, size, QT_VERSION, AddQObject,
 * RemoveQObject, Startup, TypeInformationVersion. */
enum { HOOK_VERSION = 0, HOOK_SIZE = 1, HOOK_QT_VERSION = 2, HOOK_ADD = 3, HOOK_REMOVE = 4 };

/* Objects made on the GUI thread since the last look (owner-only: the GUI thread). */
#define NOTED 8192
static const void *noted[NOTED] LH_LARGE_TABLE(qt_noted);
static uint32_t noted_count;

static void object_added(void *object) {
    void (*next)(void *) = next_add;
    if (next != NULL) next(object);
    if (!gui_thread || lh_tls_data.guard != 0) return;
    if (noted_count < NOTED) {
        noted[noted_count++] = object;
        lh_add_relaxed(&objects_noted, 1); /* stat */
    } else {
        lh_add_relaxed(&objects_dropped, 1); /* stat */
    }
    lh_qt_causes_object_made(object);
}

static const unsigned qt_layout_hooks[] = {LH_HOOK_qt_widget_layout, LH_HOOK_qt_widget_resize, LH_HOOK_qt_layout_geometry,
                                           LH_HOOK_qt_item_polish, LH_HOOK_qt_item_geometry};

static void object_removed(void *object) {
    void (*next)(void *) = next_remove;
    if (next != NULL) next(object);
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || lh_load_acquire(&lh_state) != LH_STATE_READY) return; /* acquire: lh_proc is initialised */
    LH_GUARDED(t);
    bool any = false;
    for (size_t i = 0; i < LH_ARRAY_COUNT(qt_layout_hooks); i++) any |= lh_table_forget(&lh_proc.table, object, qt_layout_hooks[i]);
    if (any) lh_add_relaxed(&objects_forgotten, 1); /* stat */
    lh_relayout_forget(object);
    if (gui_thread) lh_qt_causes_forget(object);
}

/* The objects made since the last look, looked at. Guard held, GUI thread. */
static void look_at_noted(void) {
    uint32_t n = noted_count;
    for (uint32_t i = 0; i < n; i++) look_at(noted[i]);
    if (n > 0) lh_add_relaxed(&objects_looked_at, n); /* stat */
    noted_count = 0;
}

/* ---- the application object and its event delivery -------------------------------------------- */

static void wrap_notify(const void *app) {
    if (app == NULL || notify_slot < 0) return;
    void **vptr = *(void **const *)app;
    void *fn = __atomic_load_n(&vptr[notify_slot], __ATOMIC_RELAXED);
    if (lh_is_own_code((uintptr_t)fn)) return;
    int expected = 0;
    /* acquire: see the pools as the previous patcher left them. */
    if (!lh_cas_acquire(&patching, &expected, 1)) return; /* the next iteration tries again */
    if (patch_slot(&vptr[notify_slot], P_NOTIFY)) lh_add_relaxed(&notify_patched, 1); /* stat */
    lh_store_release(&patching, 0); /* release: our pool bookkeeping to the next patcher */
}

static LH_NOINLINE bool deliver(notify_fn orig, void *app, void *receiver, void *event, unsigned type) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || receiver == NULL || !lh_active(LH_FAMILY_LAYOUT)) return orig(app, receiver, event);
    if (type == QE_RESIZE || type == QE_LAYOUT_REQUEST) {
        int kind;
        {
            LH_GUARDED(t);
            if (gui_thread) look_at_noted(); /* a layout pass: its classes wrapped first */
            kind = lh_qt_kind(receiver);
        }
        if (kind != LH_QT_WIDGET) return orig(app, receiver, event);
        if (gui_thread) laid_out = true;
        unsigned hook = type == QE_RESIZE ? LH_HOOK_qt_widget_resize : LH_HOOK_qt_widget_layout;
        lh_slot *outer = qt_enter(receiver, hook);
        lh_qt_delivery outer_delivery = lh_qt_delivering;
        lh_qt_delivering = (lh_qt_delivery){receiver, hook};
        bool result = orig(app, receiver, event);
        lh_qt_delivering = outer_delivery;
        qt_leave(outer);
        return result;
    }
    if (type == QE_UPDATE_REQUEST) {
        int kind;
        {
            LH_GUARDED(t);
            if (gui_thread) look_at_noted(); /* a frame: the items made since are wrapped first */
            kind = lh_qt_kind(receiver);
        }
        uint64_t layouts_before = quick_layouts;
        bool result = orig(app, receiver, event);
        if (kind == LH_QT_QUICK_WINDOW) {
            LH_GUARDED(t);
            lh_add_relaxed(&quick_frames, 1); /* stat */
            /* its polish is over: its requests are judged */
            lh_relayout_frame_done(t, receiver, quick_layouts != layouts_before);
        }
        return result;
    }
    /* A timer, a queued call or a QML Timer firing: scheduled by layout (or by a callback layout
     * scheduled)? The records wait on the GUI thread's objects. */
    if (!gui_thread) return orig(app, receiver, event);
    uintptr_t callback = 0;
    lh_cause_ref ref;
    {
        LH_GUARDED(t);
        ref = lh_qt_causes_take(receiver, event, type, &callback);
    }
    if (ref == 0) return orig(app, receiver, event);
    lh_cause_outer outer = lh_cause_dispatch_begin(ref, callback);
    bool result = orig(app, receiver, event);
    lh_cause_dispatch_end(outer);
    LH_GUARDED(t);
    lh_cause_release(ref); /* its first dispatch is over */
    return result;
}

/* Every iteration boundary of a loop thread (lh_proc.toolkit_iteration): on the GUI thread, the
 * application's class wrapped (a subclass made after our look at construction), the slots of
 * modules loaded since found, the objects made since looked at, and the widgets' frame over.
 *
 * A frame of the widgets is an iteration that laid a widget out, or one after which the loop was
 * ready to sleep (its wait had a timeout) with no callback of layout's waiting: an iteration that
 * only ran a queued call or a timer without sleeping belongs to the frame around it
 * (lh_relayout_iteration_done). A loop that closes through a queued call takes two iterations a
 * round (the call, then the layout it requested) and never sleeps: each round is one frame, back to
 * back. An animation's steps, or the relayouts a timer's tick starts, are separated by the loop's
 * sleep: never two laid-out frames in a row. Guard held. */
static void at_iteration(lh_tls *t, uint64_t now) {
    (void)now;
    if (!gui_thread) return;
    const void *app = *api.app_self;
    if (app != NULL) wrap_notify(app);
    /* A module with slots still unknown (QtQuick or QtWidgets not loaded yet) may have come. */
    if ((polish_slot < 0 || layout_slot < 0 || lh_load_relaxed(&lh_qt_timer_meta) == NULL) &&
        lh_modules_generation() != resolved_generation)
        resolve_modules();
    look_at_noted();
    lh_qt_causes_iteration_done();
    if (between_frames_clock != NULL) {
        lh_relayout_laid_out_between_frames(t, between_frames_clock);
        between_frames_clock = NULL;
    }
    bool slept = t->wait_ms != 0 && !lh_qt_causes_pending();
    if (!laid_out && !slept) return;
    laid_out = false;
    lh_add_relaxed(&widget_frames, 1); /* stat */
    lh_relayout_iteration_done(t, widgets_clock, slept ? t->wait_ms : 0);
}

const void *lh_qt_clock_of(const void *root) {
    switch (lh_qt_kind(root)) {
    case LH_QT_QUICK_WINDOW: return root;
    case LH_QT_ITEM: return api.item_window != NULL ? api.item_window(root) : NULL;
    case LH_QT_WIDGET:
    case LH_QT_LAYOUT: return widgets_clock;
    default: return NULL;
    }
}

/* ---- finding Qt ------------------------------------------------------------------------------- */

static void say_off(const char *why) {
    lh_buf b;
    lh_buf_init(&b, off_reason, sizeof off_reason);
    lh_buf_put(&b, why);
    char mem[256];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, "loophunter: Qt layout counting is off: ");
    lh_buf_put(&line, why);
    lh_diag(line.data);
}

/* The index, counted from its part's vptr, of the slot that holds `function` in the vtable (group)
 * `vtable` names, given Qt's ABI for this major version (`known`: the C++ compiler's layout of the
 * class, fixed within a major version): the slot must hold the function, or its index is searched
 * for where the function appears exactly once. A compiler may fold identical functions into one
 * address (QQuickItem's empty updatePolish shares its address with other empty virtuals of
 * QQuickItem), so an address seen twice tells no slot: -1, not wrapped. */
static int slot_of(const char *vtable, const char *function, int known) {
    void **vt = lh_host_data(vtable);
    void *fn = lh_host_function(function);
    Dl_info where;
    const ElfW(Sym) *sym = NULL;
    if (vt == NULL || fn == NULL || dladdr1(vt, &where, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL) return -1;
    size_t n = sym->st_size / sizeof(void *);
    void *ti = n > 1 ? vt[1] : NULL;
    int found = -1, seen = 0;
    for (size_t p = 2; p < n; p++) {
        if (vt[p] != fn) continue;
        for (size_t q = p; q-- > 0;) {
            if (vt[q] != ti) continue;
            int index = (int)(p - q - 1);
            if (index == known) return known;
            found = index, seen++;
            break;
        }
    }
    return seen == 1 ? found : -1;
}

#define RESOLVE(field, name) (*(void **)&api.field = lh_host_function(name))

_Atomic(const void *) lh_qt_timer_meta;

/* QtQml's Timer: its meta-object, isRunning and the index of runningChanged among its signals
 * (asked of QtCore's meta-object API once). Guard held (Qt's calls reach no hook of ours that counts). */
static void resolve_qml_timer(void) {
    if (lh_load_relaxed(&lh_qt_timer_meta) != NULL) return;
    const void *meta = lh_host_data("_ZN9QQmlTimer16staticMetaObjectE");
    RESOLVE(qml_timer_is_running, "_ZNK9QQmlTimer9isRunningEv");
    int (*index_of_signal)(const void *meta, const char *signature) = lh_host_function("_ZNK11QMetaObject13indexOfSignalEPKc");
    int (*method_offset)(const void *meta) = lh_host_function("_ZNK11QMetaObject12methodOffsetEv");
    if (meta == NULL || api.qml_timer_is_running == NULL || index_of_signal == NULL || method_offset == NULL) return;
    int index = index_of_signal(meta, "runningChanged()");
    if (index < 0) return;
    /* A class's signals come first among its own methods: the local signal index moc passes to
     * QMetaObject::activate is the method index less the methods of its bases. */
    api.qml_timer_running_signal = index - method_offset(meta);
    /* release: the fields above are written before an emission can match the meta-object. */
    lh_store_release(&lh_qt_timer_meta, meta);
}

/* ---- QML reading an item's geometry ---------------------------------------------------------------
 *
 * QML code reads `item.width` inside QtQml, which calls the static meta-call function of the class
 * that declares the property (QQuickItem's, in QtQuick) through a pointer taken from the class's
 * meta-object: no call crosses a PLT. That pointer (QQuickItem::staticMetaObject.d.static_metacall,
 * the fourth word in Qt 5.15 and Qt 6) is pointed at item_meta_call, which notes a read of x, y,
 * width or height (lh_cause_note_read, with the item's parent item: a Quick layout is asked to lay
 * out again after its child's width was read) and goes on to the original. It is set when QtQuick is
 * first looked at, before a QML engine copies it into its property caches; a cache made earlier
 * keeps the original (the reads it serves are not seen). */

enum { QMC_READ_PROPERTY = 1 }; /* QMetaObject::ReadProperty, Qt 5 and 6 */
typedef void (*static_meta_call_fn)(void *object, int call, int index, void **args);
/* The original: written once, before the release store that makes the wrapper reachable (a QML
 * engine copies the pointer long after, on the same thread); read plainly by the wrapper. */
static static_meta_call_fn item_meta_call_next;
static uint64_t geometry_properties; /* bit i: relative property index i is x, y, width or height */
static _Atomic uint64_t geometry_reads, cpp_geometry_reads;

/* A read of the item's geometry noted, with its parent item (guard held). */
static void note_item_read(lh_tls *t, const void *item, _Atomic uint64_t *stat) {
    lh_add_relaxed(stat, 1); /* stat */
    lh_slot *s = lh_table_slot(&lh_proc.table, item, LH_HOOK_qt_item_polish);
    const void *parent = api.item_parent != NULL ? api.item_parent(item) : NULL;
    lh_cause_note_read(t, item, parent, s != NULL ? lh_load_relaxed(&s->total) : 0);
}

static LH_NOINLINE void item_geometry_read(void *item) {
    lh_tls *t = &lh_tls_data;
    /* In layout (a polish, bindings evaluated while it runs) a read explains no request: what
     * layout requests is in layout already. */
    if (t->guard != 0 || t->layout_owner != NULL || !gui_thread || !lh_cause_ready()) return;
    LH_GUARDED(t);
    note_item_read(t, item, &geometry_reads);
}

/* Whether `pc` is Qt's code (lh_qt_libraries: libQt5*, libQt6*, the plugins and QML modules Qt
 * ships): glibc's lock-free lookup of the module that holds it (glibc 2.35; without it, no call is
 * told apart: none is Qt's). */
static bool qt_code_lookup(const void *pc) {
    const char *path;
    if (!lh_module_path_of(pc, &path) || path == NULL) return false;
    for (size_t i = 0; lh_qt_libraries[i] != NULL; i++)
        if (lh_module_named(path, lh_qt_libraries[i])) return true;
    return false;
}

/* The same, through a cache of call sites (a getter is called from a few dozen places, over and
 * over: Quick Layouts asks every child's width in each pass): 64 entries, direct-mapped, owned by
 * the GUI thread, emptied there after a module was unloaded (another may be mapped at its place). */
#define CALL_SITES 64
static struct call_site {
    const void *pc;
    bool qt;
} call_sites[CALL_SITES];
static uint32_t call_sites_unloads;
static _Atomic uint32_t unloads; /* dlcloses that unloaded something (relaxed: a hint, any thread) */

void lh_qt_forget_unloaded(void) { lh_add_relaxed(&unloads, 1); }

static bool qt_code(const void *pc) {
    uint32_t now = lh_load_relaxed(&unloads);
    if (call_sites_unloads != now) {
        memset(call_sites, 0, sizeof call_sites);
        call_sites_unloads = now;
    }
    struct call_site *c = &call_sites[((uintptr_t)pc >> 2) % CALL_SITES];
    if (c->pc != pc) {
        c->pc = pc;
        c->qt = qt_code_lookup(pc);
    }
    return c->qt;
}

/* QQuickItem::width() or height() called through the PLT (LH_READ_HOOK rows): by the program's C++
 * code, a read of the item's size as QML's; by Qt's other libraries (Quick Layouts, Controls: their
 * own work), nothing. Guard held. */
void lh_qt_item_size_read(unsigned hook, const void *caller, const void *item) {
    (void)hook;
    lh_tls *t = &lh_tls_data;
    if (item == NULL || t->layout_owner != NULL || !gui_thread || qt_code(caller) || !lh_cause_ready() || lh_qt() == NULL)
        return;
    note_item_read(t, item, &cpp_geometry_reads);
}

static void item_meta_call(void *object, int call, int index, void **args) {
    if (LH_UNLIKELY(call == QMC_READ_PROPERTY) && (unsigned)index < 64 && (geometry_properties >> index & 1))
        item_geometry_read(object);
    item_meta_call_next(object, call, index, args);
}

/* Points QQuickItem's static meta-call at item_meta_call, once (guard held, GUI thread). The
 * meta-object is checked first: its first word is its base's meta-object (QObject's), and the
 * pointer replaced is code of a loaded module; x, y, width and height are QQuickItem's own
 * properties (their indices asked of QtCore). */
static void wrap_item_meta_call(void) {
    if (item_meta_call_next != NULL) return;
    void **meta = lh_host_data("_ZN10QQuickItem16staticMetaObjectE");
    const void *object_meta = lh_host_data("_ZN7QObject16staticMetaObjectE");
    int (*index_of_property)(const void *meta, const char *name) = lh_host_function("_ZNK11QMetaObject15indexOfPropertyEPKc");
    int (*property_offset)(const void *meta) = lh_host_function("_ZNK11QMetaObject14propertyOffsetEv");
    if (meta == NULL || object_meta == NULL || index_of_property == NULL || property_offset == NULL) return;
    void **slot = &meta[3];
    void *fn = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (meta[0] != object_meta || fn == NULL || lh_is_own_code((uintptr_t)fn) || !lh_symbol_is_loaded(fn)) return;
    int offset = property_offset(meta);
    uint64_t properties = 0;
    static const char *const names[] = {"x", "y", "width", "height"};
    for (size_t i = 0; i < LH_ARRAY_COUNT(names); i++) {
        int index = index_of_property(meta, names[i]) - offset;
        if (index < 0 || index >= 64) return; /* not QQuickItem's own, or beyond the mask */
        properties |= UINT64_C(1) << index;
    }
    /* The original and the indices are stored before a caller can reach the wrapper (the store's
     * release); taken back when the pointer cannot be written. */
    geometry_properties = properties;
    item_meta_call_next = (static_meta_call_fn)fn;
    if (!store_code_pointer(slot, (void *)item_meta_call)) item_meta_call_next = NULL;
}

/* What lies in Qt's other modules: the functions the adapter calls and the slots wrapped. Again
 * when modules were loaded since (a QtQuick a program loads after making its application: its
 * items' classes are wrapped from then on). false: no notify slot (Qt is off). */
static bool resolve_modules(void) {
    resolved_generation = lh_modules_generation();
    RESOLVE(widget_window, "_ZNK7QWidget6windowEv");
    RESOLVE(widget_frame_geometry, "_ZNK7QWidget13frameGeometryEv");
    RESOLVE(widget_window_title, "_ZNK7QWidget11windowTitleEv");
    RESOLVE(layout_geometry, "_ZNK7QLayout8geometryEv");
    RESOLVE(scroll_area_viewport, "_ZNK19QAbstractScrollArea8viewportEv");
    RESOLVE(item_parent, "_ZNK10QQuickItem10parentItemEv");
    RESOLVE(item_window, "_ZNK10QQuickItem6windowEv");
    RESOLVE(item_x, "_ZNK10QQuickItem1xEv");
    RESOLVE(item_y, "_ZNK10QQuickItem1yEv");
    RESOLVE(item_width, "_ZNK10QQuickItem5widthEv");
    RESOLVE(item_height, "_ZNK10QQuickItem6heightEv");
    RESOLVE(window_title, "_ZNK7QWindow5titleEv");
    RESOLVE(qml_engine, "_Z9qmlEnginePK7QObject");
    RESOLVE(qml_stack_trace, "_ZNK3QV415ExecutionEngine10stackTraceEi");
    resolve_qml_timer();
    wrap_item_meta_call();
    /* The slots' indices in Qt 5 and Qt 6 (checked against each base class's own vtable). */
    bool five = api.major == 5;
    notify_slot = slot_of("_ZTV16QCoreApplication", "_ZN16QCoreApplication6notifyEP7QObjectP6QEvent", 12);
    polish_slot = slot_of("_ZTV10QQuickItem", "_ZN10QQuickItem12updatePolishEv", five ? 46 : 45);
    geometry_slot = slot_of("_ZTV10QQuickItem",
                            five ? "_ZN10QQuickItem15geometryChangedERK6QRectFS2_" : "_ZN10QQuickItem14geometryChangeERK6QRectFS2_",
                            five ? 43 : 19);
    layout_slot = slot_of("_ZTV7QLayout", "_ZN7QLayout11setGeometryERK5QRect", five ? 18 : 20);
    layout_item_slot = slot_of("_ZTV7QLayout", "_ZThn16_N7QLayout11setGeometryERK5QRect", 6);
    return notify_slot >= 0;
}


static int probe(void) {
    hook_data = lh_host_data("qtHookData");
    if (hook_data == NULL) return QT_OFF; /* not Qt 5.4 or later */
    unsigned qt_version = (unsigned)hook_data[HOOK_QT_VERSION];
    api.major = (int)(qt_version >> 16);
    if (api.major != 5 && api.major != 6) {
        say_off("this Qt's major version is neither 5 nor 6");
        return QT_OFF;
    }
    if (hook_data[HOOK_VERSION] < 1 || hook_data[HOOK_SIZE] <= HOOK_REMOVE) {
        say_off("Qt's hook data (qtHookData) has no object callbacks");
        return QT_OFF;
    }
    api.event_type_offset = api.major == 5 ? 16 : 8; /* after the vptr (and, in Qt 5, QEventPrivate *d) */
    api.meta_call_sender_offset = 24;
    api.app_self = lh_host_data("_ZN16QCoreApplication4selfE");
    RESOLVE(class_name, "_ZNK11QMetaObject9classNameEv");
    RESOLVE(object_name, "_ZNK7QObject10objectNameEv");
    RESOLVE(deallocate, api.major == 5 ? "_ZN10QArrayData10deallocateEPS_mm" : "_ZN10QArrayData10deallocateEPS_xx");
    const char *single = lh_host_data("_ZTVN10__cxxabiv120__si_class_type_infoE");
    const char *multiple = lh_host_data("_ZTVN10__cxxabiv121__vmi_class_type_infoE");
    if (api.app_self == NULL || api.class_name == NULL || api.object_name == NULL || api.deallocate == NULL ||
        single == NULL || multiple == NULL) {
        say_off("a function LoopHunter needs is missing from this Qt");
        return QT_OFF;
    }
    ti_single = single + 16, ti_multiple = multiple + 16; /* a typeinfo object's vptr: past offset-to-top and typeinfo */
    if (!resolve_modules()) {
        say_off("QCoreApplication::notify is not in QCoreApplication's vtable");
        return QT_OFF;
    }
    return QT_ON;
}

/* Qt found (the application object is being made): its API, the object callbacks, the loop's. */
static void start(void) {
    int expected = QT_UNKNOWN;
    /* acquire: a thread that lost sees the winner's result. */
    if (!lh_cas_acquire_both(&state, &expected, QT_PROBING)) return;
    int result = probe();
    if (result == QT_ON) {
        widgets_clock = api.app_self; /* one per process: the application's (GUI) thread */
        next_add = (void (*)(void *))hook_data[HOOK_ADD];
        next_remove = (void (*)(void *))hook_data[HOOK_REMOVE];
        /* Plain stores, as every tool that uses Qt's hook data does: Qt reads them on the thread
         * that makes or destroys an object, after the application exists (made on this thread). */
        hook_data[HOOK_ADD] = (uintptr_t)object_added;
        hook_data[HOOK_REMOVE] = (uintptr_t)object_removed;
        /* release: the API and slots are in place before the loop's boundaries call us. */
        lh_store_release(&lh_proc.toolkit_iteration, at_iteration);
    }
    /* release: publishes `api` to lh_qt's acquire (before the message handler can use it). */
    lh_store_release(&state, result);
    if (result == QT_ON) {
        lh_qt_log_start();
        lh_script_set_qml(qml_capture);
    }
}



uintptr_t lh_qt_app_begins(unsigned hook, void *app, int *argc, char **argv, int flags) {
    (void)hook, (void)app, (void)argc, (void)argv, (void)flags;
    if (!lh_active(LH_FAMILY_LAYOUT)) return 0;
    if (lh_load_acquire(&state) == QT_UNKNOWN) start(); /* acquire: pairs with start's release */
    if (lh_load_acquire(&state) == QT_ON) gui_thread = true;
    return 0;
}

void lh_qt_app_made(unsigned hook, uintptr_t token, void *app, int *argc, char **argv, int flags) {
    (void)hook, (void)token, (void)argc, (void)argv, (void)flags;
    if (lh_qt() == NULL) return;
    wrap_notify(app); /* the class made so far; a subclass's own is wrapped at the first iteration */
    look_at_noted();
}

/* ---- QString ----------------------------------------------------------------------------------- */

/* UTF-16 to UTF-8 (lone surrogates as U+FFFD), cut at a whole character. */
static void utf16_to_utf8(const uint16_t *s, size_t n, char *out, size_t size) {
    size_t o = 0;
    for (size_t i = 0; i < n && size > 0; i++) {
        uint32_t c = s[i];
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] < 0xE000)
            c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
        else if (c >= 0xD800 && c < 0xE000)
            c = 0xFFFD;
        char b[4];
        size_t k;
        if (c < 0x80) b[0] = (char)c, k = 1;
        else if (c < 0x800) b[0] = (char)(0xC0 | c >> 6), b[1] = (char)(0x80 | (c & 0x3F)), k = 2;
        else if (c < 0x10000)
            b[0] = (char)(0xE0 | c >> 12), b[1] = (char)(0x80 | ((c >> 6) & 0x3F)), b[2] = (char)(0x80 | (c & 0x3F)), k = 3;
        else
            b[0] = (char)(0xF0 | c >> 18), b[1] = (char)(0x80 | ((c >> 12) & 0x3F)), b[2] = (char)(0x80 | ((c >> 6) & 0x3F)),
            b[3] = (char)(0x80 | (c & 0x3F)), k = 4;
        if (o + k + 1 > size) break;
        memcpy(out + o, b, k);
        o += k;
    }
    if (size > 0) out[o] = '\0';
}

/* A QString's bytes as Qt 5 and Qt 6 lay them out (qstring.h, qarraydata.h):
 *   Qt 5: one pointer to its QArrayData {int ref; int size; uint alloc; qptrdiff offset}; the
 *         characters at (char *)d + offset; ref -1: static (never freed), 0: unsharable.
 *   Qt 6: {QArrayData *d; char16_t *ptr; qsizetype size}; d NULL: static. */
void lh_qt_string_read(const void *string, char *out, size_t size) {
    if (size > 0) out[0] = '\0';
    if (api.major == 5) {
        const char *d = *(const char *const *)string;
        if (d == NULL) return;
        int length = *(const int *)(d + 4);
        intptr_t offset = *(const intptr_t *)(d + 16);
        if (length > 0) utf16_to_utf8((const uint16_t *)(d + offset), (size_t)length, out, size);
        return;
    }
    const uint16_t *chars = ((const uint16_t *const *)string)[1];
    intptr_t length = ((const intptr_t *)string)[2];
    if (chars != NULL && length > 0) utf16_to_utf8(chars, (size_t)length, out, size);
}

/* One reference to a QArrayData given back (a QString's, a list's: its data header, the first word
 * of the value), and its storage freed when it was the last (`object_size`: of one element; the
 * elements were destroyed by the caller). Qt 5: ref -1 static, 0 unsharable; Qt 6: NULL static. */
static void release_array(char *d, size_t object_size) {
    if (d == NULL) return;
    _Atomic int *ref = (_Atomic int *)d;
    int r = lh_load_relaxed(ref);
    if (api.major == 5 && r == -1) return;
    /* acq_rel: the last reference frees what the others wrote, as QArrayData's own deref. */
    if ((api.major == 5 && r == 0) || atomic_fetch_sub_explicit(ref, 1, memory_order_acq_rel) == 1)
        api.deallocate(d, object_size, 8);
}

void lh_qt_string_take(void *string, char *out, size_t size) {
    lh_qt_string_read(string, out, size);
    release_array(*(char **)string, 2); /* Qt 5 and Qt 6: the data header is the first word */
}

/* ---- QML's stack --------------------------------------------------------------------------------- */

/* The object whose request is being recorded on this thread (a Quick item), for qml_capture. */
static __thread const void *qml_object __attribute__((tls_model("initial-exec")));

void lh_qt_qml_request(const void *item, bool begins) { qml_object = begins ? item : NULL; }

/* The QML functions running, asked of the item's QML engine: QV4::ExecutionEngine::stackTrace
 * (QtQml's exported private API; the engine is QJSEngine's first member after its QObject). It
 * makes a list of {QString source; QString function; int line; int column} (QVector in Qt 5,
 * QList in Qt 6): QtQml allocates it on this thread, on the request path (never inside malloc: the
 * one allocation LoopHunter lets Qt make for it, as SpiderMonkey's for GJS), and it is destroyed
 * at once. Guard held, on the engine's thread (the GUI thread: its items live there). */
static void qml_capture(lh_script_stack *out) {
    const void *item = qml_object;
    if (item == NULL || api.qml_engine == NULL || api.qml_stack_trace == NULL) return;
    char *engine = api.qml_engine(item);
    void *v4 = engine != NULL ? *(void **)(engine + 16) : NULL;
    if (v4 == NULL) return;
    void *list[3] = {0};
    api.qml_stack_trace(list, v4, LH_SCRIPT_FRAMES);
    char *d = list[0], *frames;
    size_t n, string = api.major == 5 ? 8 : 24, frame = 2 * string + 8;
    if (api.major == 5) {
        if (d == NULL) return;
        n = (size_t)*(int *)(d + 4);
        frames = d + *(intptr_t *)(d + 16);
    } else {
        frames = list[1];
        n = (size_t)(intptr_t)list[2];
    }
    for (size_t i = 0; i < n; i++) {
        char *f = frames + i * frame;
        char source[256], function[128];
        lh_qt_string_take(f, source, sizeof source);
        lh_qt_string_take(f + string, function, sizeof function);
        int line = *(int *)(f + 2 * string);
        lh_script_add_frame(out, function, strlen(function), source, strlen(source), line > 0 ? (uint32_t)line : 0);
    }
    release_array(d, frame);
}

/* ---- summary ------------------------------------------------------------------------------------- */

void lh_qt_summary(lh_json *j) {
    int s = lh_load_acquire(&state); /* acquire: pairs with start's release */
    if (s == QT_UNKNOWN) {
        lh_json_null(j, "qt");
        return;
    }
    lh_json_begin_object(j, "qt");
    lh_json_u64(j, "major", (uint64_t)(api.major > 0 ? api.major : 0));
    lh_json_string(j, "state", s == QT_ON ? "on" : s == QT_OFF ? "off" : "probing");
    lh_json_string(j, "off_reason", s == QT_OFF ? off_reason : NULL);
    lh_json_begin_object(j, "slots");
    lh_json_i64(j, "notify", notify_slot);
    lh_json_i64(j, "update_polish", polish_slot);
    lh_json_i64(j, "geometry_change", geometry_slot);
    lh_json_i64(j, "layout_set_geometry", layout_slot);
    lh_json_i64(j, "layout_item_set_geometry", layout_item_slot);
    lh_json_end_object(j);
    lh_json_u64(j, "notify_wrapped", lh_load_relaxed(&notify_patched));
    lh_json_bool(j, "item_meta_call_wrapped", item_meta_call_next != NULL);
    lh_json_u64(j, "item_geometry_reads", lh_load_relaxed(&geometry_reads));
    lh_json_u64(j, "item_size_reads_cpp", lh_load_relaxed(&cpp_geometry_reads));
    lh_json_u64(j, "classes_seen", lh_load_relaxed(&classes_seen));
    lh_json_u64(j, "classes_patched", lh_load_relaxed(&classes_patched));
    lh_json_u64(j, "slots_patched", lh_load_relaxed(&slots_patched));
    lh_json_u64(j, "slots_unwritable", lh_load_relaxed(&slots_unwritable));
    lh_json_u64(j, "patch_skipped_busy", lh_load_relaxed(&patch_skipped_busy));
    lh_json_u64(j, "objects_noted", lh_load_relaxed(&objects_noted));
    lh_json_u64(j, "objects_dropped", lh_load_relaxed(&objects_dropped));
    lh_json_u64(j, "objects_looked_at", lh_load_relaxed(&objects_looked_at));
    lh_json_u64(j, "objects_forgotten", lh_load_relaxed(&objects_forgotten));
    lh_json_u64(j, "quick_frames", lh_load_relaxed(&quick_frames));
    lh_json_u64(j, "widget_frames", lh_load_relaxed(&widget_frames));
    lh_vfunc_pools_summary(j, pools, P_COUNT);
    lh_json_u64(j, "pool_exhausted", lh_load_relaxed(&pool_exhausted));
    lh_qt_causes_summary(j);
    lh_qt_log_summary(j);
    lh_json_end_object(j);
}
