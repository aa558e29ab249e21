/*
 * lh_glib.h — the few GLib/GObject declarations the preload needs, written out so that it builds
 * without any GLib development headers and links no GLib: every function is looked up at run time
 * (lh_host_function), only in processes that have GLib. Also the notes of GLib's glue
 * (lh_glib.c) that the hook table's generated wrappers call.
 *
 * These mirror GLib 2.x's stable ABI: GType is a gsize, a GTypeInstance starts with its class
 * pointer, a GTypeClass starts with its GType, and GObjectClass's vfuncs are at fixed offsets.
 */
#ifndef LH_GLIB_H
#define LH_GLIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "lh_base.h"

typedef size_t lh_gtype;

typedef struct lh_gtype_query {
    lh_gtype type;
    const char *type_name;
    unsigned class_size;
    unsigned instance_size;
} lh_gtype_query;

/* GTypeInstance { GTypeClass *g_class; }; GTypeClass { GType g_type; } */
static inline lh_gtype lh_gtype_of_instance(const void *instance) {
    const void *klass = *(const void *const *)instance;
    return klass != NULL ? *(const lh_gtype *)klass : 0;
}

/* GObjectClass: g_type_class (8), construct_properties, constructor, set_property, get_property,
 * dispose, finalize: finalize at 6 pointers in. */
#define LH_GOBJECT_CLASS_FINALIZE_OFFSET (6 * sizeof(void *))

/* GLogLevelFlags values used here. */
enum {
    LH_G_LOG_FLAG_RECURSION = 1 << 0,
    LH_G_LOG_LEVEL_ERROR = 1 << 2,
    LH_G_LOG_LEVEL_CRITICAL = 1 << 3,
    LH_G_LOG_LEVEL_WARNING = 1 << 4,
    LH_G_LOG_LEVEL_MESSAGE = 1 << 5,
    LH_G_LOG_LEVEL_MASK = ~3,
};

/* GParameter (g_object_newv) and GValue are passed through as opaque pointers. */
typedef struct lh_gparameter lh_gparameter;
typedef struct lh_gvalue lh_gvalue;

/* GSourceFunc, GSourceOnceFunc, GDestroyNotify, GClosureNotify. */
typedef int (*lh_gsource_fn)(void *data);
typedef void (*lh_gonce_fn)(void *data);
typedef void (*lh_gnotify_fn)(void *data);
typedef void (*lh_gclosure_notify_fn)(void *data, void *closure);
/* GtkTickCallback: gboolean (*)(GtkWidget *, GdkFrameClock *, gpointer). */
typedef int (*lh_gtick_fn)(void *widget, void *clock, void *data);

/* GtkAllocation (GdkRectangle), the same in GTK 3 and 4. */
typedef struct lh_gtk_rect {
    int x, y, width, height;
} lh_gtk_rect;

/* GConnectFlags. */
enum { LH_G_CONNECT_AFTER = 1 << 0, LH_G_CONNECT_SWAPPED = 1 << 1 };

/* ---- the notes of GLib's glue (lh_glib.c), called by generated wrappers, guard held ---------- */

/* g_logv: a message about to be logged (formatted here from a copy of `args` when it is GTK's). */
void lh_glib_logging(unsigned hook, const char *domain, int level, const char *format, va_list args) LH_HIDDEN;
/* g_signal_emit_valist: an emission begins (returns its start time when steps are timed, else 0)
 * and has ended. `ap` is not read. */
uintptr_t lh_glib_emission_begins(unsigned hook, void *instance, unsigned signal_id, uint32_t detail,
                                  va_list ap) LH_HIDDEN;
void lh_glib_emission_ends(unsigned hook, uintptr_t started, void *instance, unsigned signal_id, uint32_t detail,
                           va_list ap) LH_HIDDEN;

/* g_application_run begins; g_application_register returned `registered`. The application is
 * asked for its id and, once registered, whether it is the remote instance. */
void lh_glib_application_runs(unsigned hook, void *application, int argc, char **argv) LH_HIDDEN;
void lh_glib_application_registered(unsigned hook, int registered, void *application, void *cancellable,
                                    void **error) LH_HIDDEN;

#endif
