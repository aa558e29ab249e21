/*
 * lh_qt.h — Qt 5 and Qt 6: what LoopHunter resolves from the running Qt (lh_qt.c), shared with Qt's
 * adapter (lh_toolkit_qt.c) and the glue of its layout requests (lh_qt_causes.c); and the notes of
 * the hook table's Qt rows.
 *
 * Nothing here links Qt, and no C++ runs in the preload: Qt's exported functions are looked up at run
 * time (the first time the program makes its QGuiApplication or QApplication), called through the
 * Itanium C++ ABI (a member function takes the object as its first argument; a QString comes back
 * through a hidden result pointer), and C++ virtual functions are wrapped by patching the vtable
 * slots of the classes that have instances. Called on Qt's GUI thread inside Qt's event delivery,
 * layout or polish, with no allocation of our own and no lock anything waits on.
 */
#ifndef LH_QT_H
#define LH_QT_H

#include "lh_cause.h"
#include "lh_runtime.h"

/* What an object is, told from its C++ class (its vtable's run-time type information). */
enum {
    LH_QT_UNKNOWN = 0,
    LH_QT_OTHER = 1,        /* any other QObject (or not one) */
    LH_QT_WIDGET = 2,       /* QWidget */
    LH_QT_LAYOUT = 3,       /* QLayout */
    LH_QT_ITEM = 4,         /* QQuickItem */
    LH_QT_QUICK_WINDOW = 5, /* QQuickWindow */
    LH_QT_WINDOW = 6,       /* any other QWindow */
};

/* QRect as Qt returns it (four ints, in two registers). */
typedef struct lh_qt_rect {
    int x1, y1, x2, y2;
} lh_qt_rect;

/* The Qt functions and facts LoopHunter uses, resolved once Qt is seen. NULL members: the module
 * that has them (QtWidgets, QtQuick) is not loaded, or not yet. */
typedef struct lh_qt_api {
    int major;                      /* 5 or 6 */
    unsigned event_type_offset;     /* QEvent::t: 16 in Qt 5, 8 in Qt 6 */
    /* QAbstractMetaCallEvent::sender_ (qobject_p.h: int signalId_, then the sender): 24 in Qt 5.15
     * and Qt 6 (after QEvent's 20 or 16 bytes and the int), checked with gdb on both. */
    unsigned meta_call_sender_offset;
    void *const *app_self;          /* QCoreApplication::self */
    const char *(*class_name)(const void *meta_object);           /* QMetaObject::className */
    void (*object_name)(void *string_out, const void *object);     /* QObject::objectName (QString) */
    void (*deallocate)(void *data, size_t object_size, size_t alignment); /* QArrayData::deallocate */
    /* QtWidgets */
    void *(*widget_window)(const void *widget);                    /* QWidget::window */
    lh_qt_rect (*widget_frame_geometry)(const void *widget);       /* QWidget::frameGeometry */
    void (*widget_window_title)(void *string_out, const void *widget);
    lh_qt_rect (*layout_geometry)(const void *layout);             /* QLayout::geometry */
    void *(*scroll_area_viewport)(const void *area);               /* QAbstractScrollArea::viewport */
    /* QtQuick */
    void *(*item_parent)(const void *item);                        /* QQuickItem::parentItem */
    void *(*item_window)(const void *item);                        /* QQuickItem::window */
    double (*item_x)(const void *item), (*item_y)(const void *item);
    double (*item_width)(const void *item), (*item_height)(const void *item);
    /* QtGui */
    void (*window_title)(void *string_out, const void *window);    /* QWindow::title */
    /* QtQml: an object's engine (qmlEngine), the QML functions running (QV4 private API) */
    char *(*qml_engine)(const void *object);
    void (*qml_stack_trace)(void *list_out, const void *v4_engine, int frames);
    /* QtQml's Timer (QQmlTimer, a private but exported class): whether it runs, and the local index
     * of its runningChanged signal; both valid once lh_qt_timer_meta (its meta-object) is set. */
    bool (*qml_timer_is_running)(const void *timer);
    int qml_timer_running_signal;
} lh_qt_api;

/* QQmlTimer::staticMetaObject once QtQml is loaded and its Timer understood, else NULL: what the
 * QMetaObject::activate hook compares each emission's meta-object with. relaxed on that path (a
 * hint); lh_qt() is asked before the API is used. */
extern _Atomic(const void *) lh_qt_timer_meta LH_HIDDEN;

/* The widget whose Resize or LayoutRequest this thread is delivering now (the innermost), and the
 * hook its layout is counted under: its code (a resizeEvent, an event() override) is what runs. */
typedef struct lh_qt_delivery {
    const void *widget;
    unsigned hook;
} lh_qt_delivery;
extern __thread lh_qt_delivery lh_qt_delivering __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* The API when Qt is on in this process, else NULL. */
const lh_qt_api *lh_qt(void) LH_HIDDEN;
/* Whether this thread made the application (Qt's GUI thread). */
bool lh_qt_gui_thread(void) LH_HIDDEN;
/* The kind of `object` (LH_QT_*), from its class; the object is alive. */
int lh_qt_kind(const void *object) LH_HIDDEN;
/* The clock whose frames lay out `root` (the root of a widget tree, or of a Quick item tree): a
 * QQuickWindow for Quick; for widgets, one per GUI thread, whose frames are its loop's iterations. */
const void *lh_qt_clock_of(const void *root) LH_HIDDEN;
/* UTF-8 of a QString the caller got from Qt (`string`: its bytes), into `out` (cut to fit), and
 * the QString given back. */
void lh_qt_string_take(void *string, char *out, size_t size) LH_HIDDEN;
/* The same of a QString Qt lends (a const reference): nothing given back. */
void lh_qt_string_read(const void *string, char *out, size_t size) LH_HIDDEN;
/* Qt's messages (lh_qt_log.c): LoopHunter's handler installed, before whatever the program
 * installs (Qt found: the application is being made). Guard held. */
void lh_qt_log_start(void) LH_HIDDEN;
void lh_qt_log_summary(lh_json *j) LH_HIDDEN;
/* A request on Quick item `item` is being recorded on this thread (begins) or was (ends): a QML
 * stack asked for meanwhile is its engine's. */
void lh_qt_qml_request(const void *item, bool begins) LH_HIDDEN;
/* QQuickItem::width() or height() called through the PLT by `caller`: a read of the item's size
 * when the caller is not one of Qt's libraries (lh_qt.c). */
void lh_qt_item_size_read(unsigned hook, const void *caller, const void *item) LH_HIDDEN;
/* Qt's code by module name (lh_module_named): its libraries, the plugins and QML modules it ships. */
extern const char *const lh_qt_libraries[] LH_HIDDEN;
/* After a dlclose that unloaded a module: what was learnt about code addresses is forgotten. */
void lh_qt_forget_unloaded(void) LH_HIDDEN;
/* The "qt" section of the summary. */
void lh_qt_summary(lh_json *j) LH_HIDDEN;

/* ---- the notes of Qt's glue, called by generated wrappers (guard held) -------------------------- */

/* QGuiApplication's and QApplication's constructors: Qt is found (before), and the application
 * object's event delivery is wrapped (after). */
uintptr_t lh_qt_app_begins(unsigned hook, void *app, int *argc, char **argv, int flags) LH_HIDDEN;
void lh_qt_app_made(unsigned hook, uintptr_t token, void *app, int *argc, char **argv, int flags) LH_HIDDEN;

/* ---- layout requests and their causes (lh_qt_causes.c) ------------------------------------------ */

/* QCoreApplication::postEvent: a LayoutRequest posted to a widget is a request on it (or on the
 * widget whose setter posted it). */
void lh_qt_event_posted(unsigned hook, void *receiver, void *event, int priority) LH_HIDDEN;
/* QQuickItem::polish: a request on the item. */
void lh_qt_polish_requested(unsigned hook, void *item) LH_HIDDEN;
/* QAbstractScrollArea::setViewportMargins (four ints, or a QMargins: not read): it lays the viewport
 * out at once, posting nothing; a request on the viewport, counted against its resizes. */
void lh_qt_viewport_margins_set(unsigned hook, void *area, ...) LH_HIDDEN;
/* A QWidget setter that may re-request layout (setMinimumSize, setFixedHeight, updateGeometry,
 * QLabel::setText, ...): requests made inside it are on `widget`. The arguments after the widget
 * are the row's, not read. */
uintptr_t lh_qt_setter_begins(unsigned hook, void *widget, ...) LH_HIDDEN;
void lh_qt_setter_ends(unsigned hook, uintptr_t token, void *widget, ...) LH_HIDDEN;
/* QMetaObject::invokeMethodImpl, QTimer::singleShotImpl and QTimer::singleShot (a slot by name):
 * a call scheduled on `receiver` while layout runs (or from a callback layout scheduled) carries
 * a cause record to its delivery. */
uintptr_t lh_qt_invoke_begins(unsigned hook, void *receiver, void *slot, int type, void *ret) LH_HIDDEN;
void lh_qt_invoke_ends(unsigned hook, uintptr_t token, int result, void *receiver, void *slot, int type, void *ret) LH_HIDDEN;
/* QMetaObject::invokeMethod by slot name, QMetaMethod::invoke (Qt.callLater's): the same, when
 * queued. The arguments after `type` are the row's, not read. */
uintptr_t lh_qt_invoke_named_begins(unsigned hook, void *receiver, const char *member, int type, ...) LH_HIDDEN;
void lh_qt_invoke_named_ends(unsigned hook, uintptr_t token, int result, void *receiver, const char *member, int type, ...) LH_HIDDEN;
uintptr_t lh_qt_method_invoke_begins(unsigned hook, const void *method, void *receiver, int type, ...) LH_HIDDEN;
void lh_qt_method_invoke_ends(unsigned hook, uintptr_t token, int result, const void *method, void *receiver, int type, ...) LH_HIDDEN;
uintptr_t lh_qt_single_shot_begins(unsigned hook, int msec, int timer_type, const void *receiver, const void *slot) LH_HIDDEN;
void lh_qt_single_shot_ends(unsigned hook, uintptr_t token, int msec, int timer_type, const void *receiver,
                            const void *slot) LH_HIDDEN;
uintptr_t lh_qt_single_shot_named_begins(unsigned hook, int msec, const void *receiver, const char *member) LH_HIDDEN;
void lh_qt_single_shot_named_ends(unsigned hook, uintptr_t token, int msec, const void *receiver, const char *member) LH_HIDDEN;
/* QTimer::start and QObject::startTimer (the arguments after the object: not read): a timer started
 * on `object` while layout runs (or from a callback layout scheduled) carries a cause record to its
 * first QTimerEvent. startTimer's end also gets the timer id it returned. */
uintptr_t lh_qt_timer_begins(unsigned hook, void *object, ...) LH_HIDDEN;
void lh_qt_timer_ends(unsigned hook, uintptr_t token, void *object, ...) LH_HIDDEN;
void lh_qt_start_timer_ends(unsigned hook, uintptr_t token, int id, void *object, int msec, int type) LH_HIDDEN;

/* QObject::connectImpl: a functor connected while layout runs (or from a callback layout scheduled)
 * runs its first call with a cause record (its QSlotObjectBase's code is given a trampoline). The
 * arguments after `slot_object` are the row's, not read. */
uintptr_t lh_qt_connect_begins(unsigned hook, void *result, const void *sender, void **signal, const void *receiver,
                               void **slot, void *slot_object, ...) LH_HIDDEN;
void lh_qt_connect_ends(unsigned hook, uintptr_t token, void *returned, void *result, const void *sender, void **signal,
                        const void *receiver, void **slot, void *slot_object, ...) LH_HIDDEN;

/* Inside lh_qt.c: */
/* A QObject was made on the GUI thread while a scheduling call runs: it carries the call's cause
 * (QTimer::singleShot's private timer object). */
void lh_qt_causes_object_made(const void *object) LH_HIDDEN;
/* Event `event` of type `type` is about to be delivered to `receiver`: the cause record a scheduling
 * call left for it, or, for a queued call, a signal its sender emitted in a layout-caused context
 * (0: none; taken: the delivery's own). Guard held. */
lh_cause_ref lh_qt_causes_take(const void *receiver, const void *event, unsigned type, uintptr_t *callback) LH_HIDDEN;
/* Whether any receiver carries a cause (the delivery's fast path asks; and an iteration with one
 * waiting is not the loop's sleep). */
bool lh_qt_causes_pending(void) LH_HIDDEN;
/* Whether a signal emitted in a layout-caused context may still reach a queued call (the delivery's
 * fast path asks for queued calls). */
bool lh_qt_signals_pending(void) LH_HIDDEN;
/* An iteration of the GUI thread's loop ended: signals noted two iterations ago are forgotten (their
 * queued calls, posted inside QtCore, were delivered by now). */
void lh_qt_causes_iteration_done(void) LH_HIDDEN;
/* `object` is being destroyed: what the causes keep of it goes. */
void lh_qt_causes_forget(const void *object) LH_HIDDEN;
/* The causes' part of the "qt" summary section. */
void lh_qt_causes_summary(lh_json *j) LH_HIDDEN;

#endif
