/*
 * lh_qt_types.h — the Qt types the hook table's rows name (lh_hooks.def), as the C++ ABI passes
 * them: nothing of Qt is included or linked.
 */
#ifndef LH_QT_TYPES_H
#define LH_QT_TYPES_H

/* QGenericArgument and QGenericReturnArgument (the same two pointers): passed by value, in two
 * registers or on the stack, as this struct is. */
typedef struct lh_qt_arg {
    const void *data;
    const char *name;
} lh_qt_arg;

/* QtMessageHandler: void (QtMsgType, const QMessageLogContext &, const QString &). */
typedef void (*lh_qt_message_handler)(int type, const void *context, const void *message);

/* Qt::QueuedConnection: a call that runs later, from the receiver's event loop. */
#define LH_QT_QUEUED_CONNECTION 2

#endif
