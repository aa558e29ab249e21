/*
 * lh_qt_causes.c — Qt's layout requests and the calls that carry their causes (docs/causes.md).
 *
 * Requests seen (each a hook row, interposed: the program's calls and those of other Qt libraries
 * go through the PLT; Qt's calls inside one library do not):
 *   - QCoreApplication::postEvent of a LayoutRequest: QLayout::update and QWidget::updateGeometry
 *     post it to the widget whose layout must run again (the changed widget's parent), from QtWidgets
 *     into QtCore. The request is on the widget whose code asked: the setter's widget when the post
 *     happens inside a setter the program called (setMinimumSize, setFixedHeight, updateGeometry,
 *     resize, QLabel::setText, ...: hook rows), counted against its resizes; else the widget whose
 *     Resize or LayoutRequest is being delivered (its resizeEvent or event() override runs),
 *     counted against that; else the widget the LayoutRequest goes to, counted against its
 *     LayoutRequest handling.
 *   - QQuickItem::polish: a request on the item, counted against its polishes (the program's C++
 *     items and Qt Quick Layouts call it through the PLT; QtQuick's own items do not).
 *   - QAbstractScrollArea::setViewportMargins: it resizes the viewport at once and posts nothing; a
 *     request on the viewport, counted against its resizes.
 * Causes carried: a call scheduled while layout runs, or by a callback layout scheduled
 * (QMetaObject::invokeMethodImpl, QTimer::singleShotImpl, QTimer::singleShot by slot name,
 * QTimer::start, QObject::startTimer, a QML Timer started: its runningChanged through
 * QMetaObject::activate) gets a
 * cause record (lh_cause_born: its kind, the adding stack, the slot's code). The record waits on the
 * call's receiver (and on any object the call made meanwhile: Qt 5's single-shot timer object) until
 * Qt delivers a timer or queued-call event to it: that first delivery runs as a dispatch with the
 * record (lh_qt.c), so what it requests is "deferred", then the record is given back.
 *
 * Runs on the GUI thread inside the hooks, guard held (generated wrappers). State is the GUI
 * thread's (owner-only), but for the count of waiting records, read by the event fast path on any
 * thread (relaxed). No allocation, no lock.
 */
#include <string.h>

#include "lh_cause.h"
#include "lh_qt.h"
#include "lh_qt_types.h"
#include "lh_relayout.h"
#include "lh_vfunc_pools.h"

enum { QE_META_CALL = 43, QE_LAYOUT_REQUEST = 76 };

/* The widget of the setter running on this thread (NULL: none), and its resizes counted when the
 * setter began (a setter may resize it at once, before it posts the LayoutRequest). */
static __thread const void *setter_widget __attribute__((tls_model("initial-exec")));
static __thread uint64_t setter_layouts __attribute__((tls_model("initial-exec")));
/* The record of the scheduling call running on this thread (0: none, or not from layout). */
static __thread lh_cause_ref scheduling __attribute__((tls_model("initial-exec")));
static __thread uintptr_t scheduling_callback __attribute__((tls_model("initial-exec")));

/* Records waiting for a delivery to their receiver (GUI thread). */
#define WAITING 32
static struct {
    const void *receiver;
    lh_cause_ref ref;
    uintptr_t callback;
    uint64_t serial;
} waiting[WAITING];
static uint64_t waiting_serial;
static _Atomic uint32_t waiting_count; /* relaxed: a hint for the event fast path */

static _Atomic uint64_t requests_posted, requests_polish, requests_on_setter, requests_margins, scheduled, scheduled_dropped,
    delivered;

bool lh_qt_causes_pending(void) { return lh_load_relaxed(&waiting_count) != 0; }

static void wait_for(const void *receiver, lh_cause_ref ref, uintptr_t callback) {
    size_t slot = WAITING, oldest = 0;
    for (size_t i = 0; i < WAITING; i++) {
        if (waiting[i].receiver == receiver) { slot = i; break; }
        if (waiting[i].receiver == NULL && slot == WAITING) slot = i;
        if (waiting[i].serial < waiting[oldest].serial) oldest = i;
    }
    if (slot == WAITING) {
        slot = oldest;
        lh_add_relaxed(&scheduled_dropped, 1); /* stat */
    }
    if (waiting[slot].receiver != NULL) {
        lh_cause_release(waiting[slot].ref);
        lh_sub_relaxed(&waiting_count, 1);
    }
    if (!lh_cause_retain(ref)) {
        waiting[slot].receiver = NULL;
        return;
    }
    waiting[slot].receiver = receiver;
    waiting[slot].ref = ref;
    waiting[slot].callback = callback;
    waiting[slot].serial = ++waiting_serial;
    lh_add_relaxed(&waiting_count, 1);
}

/* ---- signals emitted in a layout-caused context --------------------------------------------------
 *
 * A queued connection's call is posted inside QtCore (QMetaObject::activate posts a QMetaCallEvent
 * to the receiver; no PLT call there to see), so the scheduling cannot be seen, only the emission:
 * QMetaObject::activate, called by the sender's moc code outside QtCore (QScrollBar's rangeChanged,
 * which QAbstractScrollArea takes through a queued connection to lay its scroll bars and viewport
 * out again). A signal emitted while layout runs, or in a callback layout scheduled, is noted with
 * its sender and the context's origin (no record yet: most emissions reach no queued call); a
 * queued call whose event names that sender (the event's sender_) is then delivered with a record
 * born of the origin. The emitting stack is kept when the emission runs in a callback layout
 * scheduled (that code closes the loop: the report names it), at most EMITTED_STACKS an iteration;
 * not in layout itself, nor in a Quick item's geometry change, where a polish or an animation
 * emits hundreds of signals a frame. Noted signals are
 * forgotten two iterations later: Qt delivers the events posted in one pass of its posted events
 * in the next. GUI thread. */
#define EMITTED 16
#define EMITTED_STACKS 16
/* The senders apart from the rest: every emission in a layout-caused context scans them (two cache
 * lines); a Quick polish makes thousands a second, nearly all of them new senders. */
static const void *emitted_sender[EMITTED];
static struct {
    lh_cause_origin origin;
    uint32_t age; /* iterations ended since the emission */
    uint32_t pc_count;
    uintptr_t pcs[LH_CAUSE_PCS];
} emitted[EMITTED];
static uint32_t emitted_next; /* when all are taken, the one to replace (round robin: the oldest) */
static uint32_t stacks_this_iteration;
static _Atomic uint32_t emitted_count; /* relaxed: a hint for the event fast path */
static _Atomic uint64_t signals_noted, signals_delivered;

bool lh_qt_signals_pending(void) { return lh_load_relaxed(&emitted_count) != 0; }

static void emitted_forget(size_t i) {
    lh_cause_origin_drop(&emitted[i].origin);
    emitted_sender[i] = NULL;
    lh_sub_relaxed(&emitted_count, 1);
}

/* `sender` emitted a signal in a layout-caused context (guard held, GUI thread). The first origin
 * noted for a sender stays until its call comes or it is forgotten. */
static void signal_noted(lh_tls *t, const void *sender) {
    size_t slot = EMITTED;
    for (size_t i = 0; i < EMITTED; i++) {
        if (emitted_sender[i] == sender) return;
        if (emitted_sender[i] == NULL && slot == EMITTED) slot = i;
    }
    if (slot == EMITTED) {
        slot = emitted_next++ % EMITTED;
        emitted_forget(slot);
    }
    lh_cause_origin o = lh_cause_origin_now(t);
    if (o.kind == LH_CAUSE_OUTSIDE) return;
    emitted_sender[slot] = sender;
    emitted[slot].origin = o;
    emitted[slot].age = 0;
    emitted[slot].pc_count = 0;
    if (o.kind == LH_CAUSE_DEFERRED && stacks_this_iteration < EMITTED_STACKS) {
        stacks_this_iteration++;
        emitted[slot].pc_count = lh_cause_capture_stack(emitted[slot].pcs, LH_CAUSE_PCS);
    }
    lh_add_relaxed(&emitted_count, 1);
    lh_add_relaxed(&signals_noted, 1); /* stat */
}

void lh_qt_causes_iteration_done(void) {
    stacks_this_iteration = 0;
    if (lh_load_relaxed(&emitted_count) == 0) return;
    for (size_t i = 0; i < EMITTED; i++) {
        if (emitted_sender[i] != NULL && ++emitted[i].age >= 2) emitted_forget(i);
    }
}

/* The sender a queued call's event names (NULL: none, as every call posted by invokeMethod,
 * QMetaMethod::invoke or a zero single-shot has). */
static const void *event_sender(const lh_qt_api *q, const void *event, unsigned type) {
    if (type != QE_META_CALL || event == NULL) return NULL;
    return *(const void *const *)((const char *)event + q->meta_call_sender_offset);
}

/* A queued call of `sender`'s signal about to be delivered: a record of the signal's origin (0: none). */
static lh_cause_ref signal_take(const void *sender) {
    for (size_t i = 0; i < EMITTED && lh_load_relaxed(&emitted_count) != 0; i++) {
        if (emitted_sender[i] != sender) continue;
        lh_cause_ref ref = lh_cause_born_later(&emitted[i].origin, LH_HOOK__ZN11QMetaObject8activateEP7QObjectPKS_iPPv, 0,
                                               emitted[i].pcs, emitted[i].pc_count);
        emitted_forget(i);
        if (ref != 0) lh_add_relaxed(&signals_delivered, 1); /* stat */
        return ref;
    }
    return 0;
}

/* A queued call whose event names a noted sender is that signal's, not the scheduling call a
 * receiver's record is waiting for (that call's event, delivered after it, takes the record). Any
 * other event goes to the receiver's record, as before queued signals were followed: on a Qt whose
 * event layout differs from the one checked, nothing changes but that queued signals carry no
 * cause. */
lh_cause_ref lh_qt_causes_take(const void *receiver, const void *event, unsigned type, uintptr_t *callback) {
    *callback = 0;
    const lh_qt_api *q = lh_qt();
    if (q == NULL || receiver == NULL) return 0;
    const void *sender = event_sender(q, event, type);
    lh_cause_ref by_signal = sender != NULL ? signal_take(sender) : 0;
    if (by_signal != 0) return by_signal;
    for (size_t i = 0; i < WAITING && lh_load_relaxed(&waiting_count) != 0; i++) {
        if (waiting[i].receiver != receiver) continue;
        lh_cause_ref ref = waiting[i].ref;
        *callback = waiting[i].callback;
        waiting[i].receiver = NULL;
        lh_sub_relaxed(&waiting_count, 1);
        lh_add_relaxed(&delivered, 1); /* stat */
        return ref;
    }
    return 0;
}

void lh_qt_causes_forget(const void *object) {
    for (size_t i = 0; i < EMITTED && lh_load_relaxed(&emitted_count) != 0; i++) {
        if (emitted_sender[i] == object && object != NULL) emitted_forget(i);
    }
    if (lh_load_relaxed(&waiting_count) == 0) return;
    for (size_t i = 0; i < WAITING; i++) {
        if (waiting[i].receiver != object || object == NULL) continue;
        lh_cause_release(waiting[i].ref);
        waiting[i].receiver = NULL;
        lh_sub_relaxed(&waiting_count, 1);
    }
}

void lh_qt_causes_object_made(const void *object) {
    if (scheduling != 0) wait_for(object, scheduling, scheduling_callback);
}

/* ---- requests ------------------------------------------------------------------------------------ */

void lh_qt_event_posted(unsigned hook, void *receiver, void *event, int priority) {
    (void)priority;
    const lh_qt_api *q = lh_qt();
    if (q == NULL || receiver == NULL || event == NULL || !lh_cause_ready()) return;
    unsigned type = *(const uint16_t *)((const char *)event + q->event_type_offset);
    if (type != QE_LAYOUT_REQUEST || lh_qt_kind(receiver) != LH_QT_WIDGET) return;
    lh_tls *t = &lh_tls_data;
    /* The widget whose code asked: a setter's, else the one whose event is being delivered (its
     * resizeEvent or event() runs), else the one whose layout must run again. */
    const void *widget = setter_widget;
    if (widget != NULL && lh_qt_kind(widget) == LH_QT_WIDGET) {
        lh_add_relaxed(&requests_on_setter, 1); /* stat */
        lh_relayout_request_since(t, LH_HOOK_qt_widget_resize, widget, hook, setter_layouts);
        return;
    }
    lh_add_relaxed(&requests_posted, 1); /* stat */
    if (lh_qt_delivering.widget != NULL) lh_relayout_request(t, lh_qt_delivering.hook, lh_qt_delivering.widget, hook);
    else lh_relayout_request(t, LH_HOOK_qt_widget_layout, receiver, hook);
}

void lh_qt_polish_requested(unsigned hook, void *item) {
    if (lh_qt() == NULL || item == NULL || !lh_cause_ready()) return;
    lh_add_relaxed(&requests_polish, 1); /* stat */
    lh_qt_qml_request(item, true);
    lh_relayout_request(&lh_tls_data, LH_HOOK_qt_item_polish, item, hook);
    lh_qt_qml_request(item, false);
}

void lh_qt_viewport_margins_set(unsigned hook, void *area, ...) {
    const lh_qt_api *q = lh_qt();
    if (q == NULL || area == NULL || q->scroll_area_viewport == NULL || !lh_cause_ready()) return;
    if (lh_qt_kind(area) != LH_QT_WIDGET) return;
    const void *viewport = q->scroll_area_viewport(area);
    if (viewport == NULL) return;
    lh_add_relaxed(&requests_margins, 1); /* stat */
    lh_relayout_request(&lh_tls_data, LH_HOOK_qt_widget_resize, viewport, hook);
}

uintptr_t lh_qt_setter_begins(unsigned hook, void *widget, ...) {
    (void)hook;
    uintptr_t outer = (uintptr_t)setter_widget;
    setter_widget = widget;
    /* (A setter inside a setter: the outer one's requests are judged from the inner one's start.) */
    setter_layouts = lh_cause_ready() ? lh_relayout_layouts(LH_HOOK_qt_widget_resize, widget) : 0;
    return outer;
}

void lh_qt_setter_ends(unsigned hook, uintptr_t token, void *widget, ...) {
    (void)hook, (void)widget;
    setter_widget = (const void *)token;
}

/* ---- calls scheduled ----------------------------------------------------------------------------- */

/* A scheduling call begins: when the thread's context is layout-caused, a record for it, waiting on
 * `receiver` (and, until the call returns, on the objects it makes). Returns the record (0: none). */
static uintptr_t schedule(unsigned hook, const void *receiver, uintptr_t callback) {
    lh_tls *t = &lh_tls_data;
    if (lh_qt() == NULL || receiver == NULL || !lh_cause_ready() || lh_cause_context(t) == LH_CAUSE_OUTSIDE) return 0;
    lh_cause_ref ref = lh_cause_born(t, hook, callback);
    if (ref == 0) return 0;
    lh_add_relaxed(&scheduled, 1); /* stat */
    wait_for(receiver, ref, callback);
    scheduling = ref;
    scheduling_callback = callback;
    return (uintptr_t)ref;
}

/* The call returned: the record is the waiters' now (lh_cause_born's own reference given back). */
static void scheduled_done(uintptr_t token) {
    if (token == 0) return;
    scheduling = 0;
    scheduling_callback = 0;
    lh_cause_release((lh_cause_ref)token);
}

/* The code a QtPrivate::QSlotObjectBase runs: its impl function, after its reference count. */
static uintptr_t slot_code(const void *slot) { return slot != NULL ? *(const uintptr_t *)((const char *)slot + 8) : 0; }

uintptr_t lh_qt_invoke_begins(unsigned hook, void *receiver, void *slot, int type, void *ret) {
    (void)ret;
    /* Any other type runs the slot now, inside the call (a direct call: its requests are the
     * caller's), or on another thread. */
    return type == LH_QT_QUEUED_CONNECTION ? schedule(hook, receiver, slot_code(slot)) : 0;
}

void lh_qt_invoke_ends(unsigned hook, uintptr_t token, int result, void *receiver, void *slot, int type, void *ret) {
    (void)hook, (void)result, (void)receiver, (void)slot, (void)type, (void)ret;
    scheduled_done(token);
}

uintptr_t lh_qt_invoke_named_begins(unsigned hook, void *receiver, const char *member, int type, ...) {
    (void)member;
    return type == LH_QT_QUEUED_CONNECTION ? schedule(hook, receiver, 0) : 0;
}

void lh_qt_invoke_named_ends(unsigned hook, uintptr_t token, int result, void *receiver, const char *member, int type, ...) {
    (void)hook, (void)result, (void)receiver, (void)member, (void)type;
    scheduled_done(token);
}

uintptr_t lh_qt_method_invoke_begins(unsigned hook, const void *method, void *receiver, int type, ...) {
    (void)method;
    return type == LH_QT_QUEUED_CONNECTION ? schedule(hook, receiver, 0) : 0;
}

void lh_qt_method_invoke_ends(unsigned hook, uintptr_t token, int result, const void *method, void *receiver, int type, ...) {
    (void)hook, (void)result, (void)method, (void)receiver, (void)type;
    scheduled_done(token);
}

uintptr_t lh_qt_single_shot_begins(unsigned hook, int msec, int timer_type, const void *receiver, const void *slot) {
    (void)msec, (void)timer_type;
    return schedule(hook, receiver, slot_code(slot));
}

void lh_qt_single_shot_ends(unsigned hook, uintptr_t token, int msec, int timer_type, const void *receiver, const void *slot) {
    (void)hook, (void)msec, (void)timer_type, (void)receiver, (void)slot;
    scheduled_done(token);
}

uintptr_t lh_qt_single_shot_named_begins(unsigned hook, int msec, const void *receiver, const char *member) {
    (void)msec, (void)member;
    return schedule(hook, receiver, 0);
}

void lh_qt_single_shot_named_ends(unsigned hook, uintptr_t token, int msec, const void *receiver, const char *member) {
    (void)hook, (void)msec, (void)receiver, (void)member;
    scheduled_done(token);
}

uintptr_t lh_qt_timer_begins(unsigned hook, void *object, ...) { return schedule(hook, object, 0); }

void lh_qt_timer_ends(unsigned hook, uintptr_t token, void *object, ...) {
    (void)hook, (void)object;
    scheduled_done(token);
}

void lh_qt_start_timer_ends(unsigned hook, uintptr_t token, int id, void *object, int msec, int type) {
    (void)hook, (void)id, (void)object, (void)msec, (void)type;
    scheduled_done(token);
}

/* ---- QML Timers started from layout ------------------------------------------------------------- */

/* A QML Timer is started inside QtQml (JS calls restart() through its meta-object, which runs the
 * pause animation that times it): no call crosses a PLT there but its runningChanged emission,
 * QtQml's moc code calling QMetaObject::activate in QtCore. Emitted while layout runs (or in a
 * callback layout scheduled) with the Timer now running, the Timer's firing is a callback
 * scheduled by layout: a record waits on the Timer until Qt delivers it the event that fires it
 * (QQmlTimer's own Triggered or tick event, lh_qt.c). A Timer stopped, or started from outside,
 * leaves nothing. */
static LH_NOINLINE void qml_timer_signal(void *timer, const void *meta, int local_signal) {
    lh_tls *t = &lh_tls_data;
    if (meta == NULL || t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT) || lh_cause_context(t) == LH_CAUSE_OUTSIDE) return;
    /* acquire: pairs with the release that published the Timer's fields (the hook's load was a hint). */
    const lh_qt_api *q = lh_qt();
    if (q == NULL || lh_load_acquire(&lh_qt_timer_meta) != meta || local_signal != q->qml_timer_running_signal) return;
    LH_GUARDED(t);
    lh_count_hook_call(LH_HOOK__ZN11QMetaObject8activateEP7QObjectPKS_iPPv);
    if (!q->qml_timer_is_running(timer)) return;
    scheduled_done(schedule(LH_HOOK__ZN11QMetaObject8activateEP7QObjectPKS_iPPv, timer, 0));
}

/* Any other signal emitted in a layout-caused context: its queued calls may carry the cause. */
static LH_NOINLINE void signal_in_context(const void *sender) {
    lh_tls *t = &lh_tls_data;
    if (sender == NULL || t->guard != 0 || !lh_active(LH_FAMILY_LAYOUT) || !lh_cause_ready() || lh_qt() == NULL ||
        !lh_qt_gui_thread())
        return;
    LH_GUARDED(t);
    signal_noted(t, sender);
}

/* The hook row's body (lh_hooks.def): two comparisons (the second a few thread-local loads), then
 * the original (a tail call). */
LH_EXPORT void _ZN11QMetaObject8activateEP7QObjectPKS_iPPv(void *sender, const void *meta, int local_signal, void **args) {
    __typeof__(lh_real__ZN11QMetaObject8activateEP7QObjectPKS_iPPv) real =
        LH_ORIGINAL(_ZN11QMetaObject8activateEP7QObjectPKS_iPPv);
    if (LH_UNLIKELY(meta == lh_load_relaxed(&lh_qt_timer_meta))) qml_timer_signal(sender, meta, local_signal);
    else if (LH_UNLIKELY(lh_cause_context(&lh_tls_data) != LH_CAUSE_OUTSIDE)) signal_in_context(sender);
    if (LH_LIKELY(real != NULL)) real(sender, meta, local_signal, args);
}

/* ---- functors connected from layout ---------------------------------------------------------------- */

/* A QtPrivate::QSlotObjectBase (qobjectdefs_impl.h, Qt 5 and 6.4): {QAtomicInt ref; ImplFn impl},
 * impl(which, this, receiver, args, ret) with which 0 Destroy, 1 Call, 2 Compare. A functor connected
 * from layout has its impl pointed at a trampoline (one per original impl, lh_vfunc_pools.h): the
 * first Call runs as a dispatch with the connection's record, then the original impl is put back;
 * a Destroy before any Call gives the record back. GUI thread. */
typedef void (*slot_impl_fn)(int which, void *self, void *receiver, void **args, bool *ret);
#define SLOT_IMPL_OFFSET 8

#define CONNECTED 32
static struct {
    void *slot_object;
    lh_cause_ref ref;
    slot_impl_fn impl;
} connected[CONNECTED];
static _Atomic uint64_t connections_from_layout, connections_called;

static void connected_call(int which, void *self, void *receiver, void **args, bool *ret, slot_impl_fn impl) {
    size_t i = 0;
    while (i < CONNECTED && connected[i].slot_object != self) i++;
    if (i == CONNECTED) {
        impl(which, self, receiver, args, ret);
        return;
    }
    lh_cause_ref ref = connected[i].ref;
    connected[i].slot_object = NULL;
    /* The original first: later calls are the signal's own doing, not layout's. */
    __atomic_store_n((slot_impl_fn *)((char *)self + SLOT_IMPL_OFFSET), impl, __ATOMIC_RELAXED);
    if (which != 1) { /* destroyed (or compared) before its first call */
        lh_cause_release(ref);
        impl(which, self, receiver, args, ret);
        return;
    }
    lh_add_relaxed(&connections_called, 1); /* stat */
    lh_cause_outer outer = lh_cause_dispatch_begin(ref, (uintptr_t)impl);
    impl(which, self, receiver, args, ret);
    lh_cause_dispatch_end(outer);
    lh_cause_release(ref);
}

#define slot_tramp_WRAPPER(i)                                                                       \
    static LH_USED void slot_tramp_##i(int which, void *self, void *receiver, void **args, bool *ret) { \
        connected_call(which, self, receiver, args, ret, (slot_impl_fn)LH_ORIG(slot_tramp, i));     \
    }
#define slot_tramp_OFFSET(i) LH_POOL_OFFSET(slot_tramp, i)
#define LH_REP64(M) LH_REP16(M, 0x0) LH_REP16(M, 0x1) LH_REP16(M, 0x2) LH_REP16(M, 0x3)
LH_DEFINE_POOL(slot_tramp, LH_REP64, 64)
static lh_vfunc_pool slot_tramps = {"QtPrivate::QSlotObjectBase::impl", slot_tramp_orig, slot_tramp_offsets, 64, 0};

/* GUI thread only: one claimer. */
static void *slot_trampoline(slot_impl_fn impl) { return lh_vfunc_pool_wrapper(&slot_tramps, (void *)impl); }

uintptr_t lh_qt_connect_begins(unsigned hook, void *result, const void *sender, void **signal, const void *receiver,
                               void **slot, void *slot_object, ...) {
    (void)result, (void)sender, (void)signal, (void)receiver, (void)slot;
    lh_tls *t = &lh_tls_data;
    if (lh_qt() == NULL || slot_object == NULL || !lh_cause_ready() || lh_cause_context(t) == LH_CAUSE_OUTSIDE) return 0;
    slot_impl_fn *at = (slot_impl_fn *)((char *)slot_object + SLOT_IMPL_OFFSET);
    slot_impl_fn impl = *at;
    size_t free_one = CONNECTED;
    for (size_t i = 0; i < CONNECTED && free_one == CONNECTED; i++)
        if (connected[i].slot_object == NULL) free_one = i;
    void *tramp = free_one < CONNECTED && impl != NULL ? slot_trampoline(impl) : NULL;
    if (tramp == NULL) return 0;
    lh_cause_ref ref = lh_cause_born(t, hook, (uintptr_t)impl);
    if (ref == 0) return 0;
    connected[free_one].slot_object = slot_object;
    connected[free_one].ref = ref;
    connected[free_one].impl = impl;
    *at = (slot_impl_fn)tramp; /* before Qt has seen the object: nothing else reads it yet */
    lh_add_relaxed(&connections_from_layout, 1); /* stat */
    return 0;
}

void lh_qt_connect_ends(unsigned hook, uintptr_t token, void *returned, void *result, const void *sender, void **signal,
                        const void *receiver, void **slot, void *slot_object, ...) {
    (void)hook, (void)token, (void)returned, (void)result, (void)sender, (void)signal, (void)receiver, (void)slot, (void)slot_object;
}

void lh_qt_causes_summary(lh_json *j) {
    lh_json_begin_object(j, "causes");
    lh_json_u64(j, "layout_requests_posted", lh_load_relaxed(&requests_posted));
    lh_json_u64(j, "layout_requests_by_setters", lh_load_relaxed(&requests_on_setter));
    lh_json_u64(j, "polish_requests", lh_load_relaxed(&requests_polish));
    lh_json_u64(j, "viewport_margins_requests", lh_load_relaxed(&requests_margins));
    lh_json_u64(j, "calls_scheduled_from_layout", lh_load_relaxed(&scheduled));
    lh_json_u64(j, "calls_delivered_with_cause", lh_load_relaxed(&delivered));
    lh_json_u64(j, "calls_dropped", lh_load_relaxed(&scheduled_dropped));
    lh_json_u64(j, "connections_from_layout", lh_load_relaxed(&connections_from_layout));
    lh_json_u64(j, "connections_called_with_cause", lh_load_relaxed(&connections_called));
    lh_json_u64(j, "signals_from_layout", lh_load_relaxed(&signals_noted));
    lh_json_u64(j, "queued_signal_calls_with_cause", lh_load_relaxed(&signals_delivered));
    lh_json_end_object(j);
}
