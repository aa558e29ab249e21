/*
 * lh_qt_log.c — Qt's messages: its layout warnings as toolkit-warning reports, and the program's
 * own message handler kept.
 *
 * Qt's warnings about layout (a Quick polish loop: "possible QQuickItem::polish() loop"; a QML
 * binding loop; Qt Quick Layouts' polish loop; QLayout's complaints) go through Qt's message
 * handler. When Qt is found (the application object is being made), LoopHunter installs its own
 * handler with qInstallMessageHandler, keeping what it replaced (the program's handler, if the
 * program installed one before, else Qt's default handler, which qInstallMessageHandler returns):
 * every message is looked at (lh_warning_seen: reported when it is about layout, with its stack)
 * and then given, untouched, to that handler. When the program installs a handler later (this
 * row), LoopHunter's stays Qt's, forwards to the program's from then on, and the program gets back
 * what Qt would have given it: the handler it replaces. So the program's handler sees every message,
 * in order, exactly as without LoopHunter.
 *
 * Contracts: the handler runs on whichever thread logs, inside Qt's logging (not inside malloc or
 * a signal handler); the look is made with the guard held, the forward outside it. The handler's
 * next step is one pointer (acquire/release). A QString is read, never changed or freed.
 */
#include "lh_qt.h"
#include "lh_qt_types.h"
#include "lh_warning.h"

static _Atomic(lh_qt_message_handler) next_handler; /* where a message goes after LoopHunter's look */
static _Atomic int installed;                       /* LoopHunter's handler is Qt's (release) */
static _Atomic uint64_t messages_seen, program_handlers;

/* QtMsgType: debug 0, warning 1, critical 2, fatal 3, info 4; as GLib's levels for the report. */
static int glib_level(int type) {
    switch (type) {
    case 1: return LH_G_LOG_LEVEL_WARNING;
    case 2: return LH_G_LOG_LEVEL_CRITICAL;
    case 3: return LH_G_LOG_LEVEL_ERROR;
    case 4: return LH_G_LOG_LEVEL_MESSAGE;
    default: return LH_G_LOG_LEVEL_MESSAGE;
    }
}

static void handle(int type, const void *context, const void *message) {
    lh_tls *t = &lh_tls_data;
    if (t->guard == 0 && message != NULL && lh_active(LH_FAMILY_LOG) && lh_qt() != NULL) {
        LH_GUARDED(t);
        lh_add_relaxed(&messages_seen, 1); /* stat */
        char text[1024]; /* as GLib's own buffer for a message */
        lh_qt_string_read(message, text, sizeof text);
        /* The text is its own fingerprint: Qt's layout warnings carry no changing numbers but a
         * QML file's line, the same each time. */
        lh_warning_seen(LH_HOOK__Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE, "Qt",
                        glib_level(type), text, text);
    }
    /* acquire: pairs with the release that set it (the program's handler is ready to be called). */
    lh_qt_message_handler next = lh_load_acquire(&next_handler);
    if (next != NULL) next(type, context, message);
}

void lh_qt_log_start(void) {
    if (!lh_family_on(LH_FAMILY_LOG) || lh_load_acquire(&installed)) return;
    __typeof__(lh_real__Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE) real =
        LH_ORIGINAL(_Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE);
    if (real == NULL) return;
    /* What Qt returns is what a message went to until now: the program's handler or Qt's default. */
    lh_qt_message_handler before = real(handle);
    lh_store_release(&next_handler, before); /* release: see handle */
    lh_store_release(&installed, 1);         /* release: the program's later calls see it */
}

LH_EXPORT lh_qt_message_handler _Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE(
    lh_qt_message_handler handler) {
    __typeof__(lh_real__Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE) real =
        LH_ORIGINAL(_Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE);
    if (real == NULL) return NULL;
    /* acquire: pairs with lh_qt_log_start's release. */
    if (!lh_load_acquire(&installed)) return real(handler);
    lh_count_hook_call(LH_HOOK__Z22qInstallMessageHandlerPFv9QtMsgTypeRK18QMessageLogContextRK7QStringE);
    lh_add_relaxed(&program_handlers, 1); /* stat */
    /* NULL restores Qt's default: Qt's qInstallMessageHandler(NULL) returns what it replaces and
     * puts the default back; LoopHunter's stays, so the default is asked of Qt, and ours restored. */
    lh_qt_message_handler next = handler;
    if (next == NULL) {
        lh_qt_message_handler ours = real(NULL);
        next = real(ours); /* Qt's default handler, as its function */
    }
    /* acq_rel: the program's handler published to handle; the one it replaces read. */
    return atomic_exchange_explicit(&next_handler, next, memory_order_acq_rel);
}

void lh_qt_log_summary(lh_json *j) {
    lh_json_begin_object(j, "messages");
    lh_json_bool(j, "handler_installed", lh_load_acquire(&installed) != 0);
    lh_json_u64(j, "seen", lh_load_relaxed(&messages_seen));
    lh_json_u64(j, "program_handlers", lh_load_relaxed(&program_handlers));
    lh_json_end_object(j);
}
