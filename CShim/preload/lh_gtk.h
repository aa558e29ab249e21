/*
 * lh_gtk.h — GTK 3 and GTK 4 support, shared by lh_gtk.c (class patching, frame clocks),
 * lh_toolkit_gtk.c (naming widgets in reports), lh_log.c (GLib warnings) and the summary.
 *
 * Nothing here links GLib or GTK: every function is resolved with dlsym(RTLD_DEFAULT) the first
 * time a GObject is created in a process that has GTK. Called on the host's GTK thread, inside
 * g_object_new or a GTK layout vfunc; no allocation of our own, no lock anything waits on.
 */
#ifndef LH_GTK_H
#define LH_GTK_H

#include "lh_glib.h"
#include "lh_json.h"
#include "lh_preload.h"

typedef struct lh_gtk_rect {
    int x, y, width, height; /* GtkAllocation (GdkRectangle) in GTK 3 and 4 */
} lh_gtk_rect;

/* The GLib and GTK functions LoopHunter calls, resolved once GTK is seen. */
typedef struct lh_gtk_api {
    int major, minor, micro;
    lh_gtype widget_type, layout_manager_type, frame_clock_type;
    int (*type_is_a)(lh_gtype type, lh_gtype is_a_type);
    void *(*type_class_peek)(lh_gtype type);
    void *(*type_class_ref)(lh_gtype type);
    lh_gtype (*type_parent)(lh_gtype type);
    const char *(*type_name)(lh_gtype type);
    void (*type_query)(lh_gtype type, lh_gtype_query *query);
    lh_gtype *(*type_children)(lh_gtype type, unsigned *n);
    void (*free)(void *memory);
    unsigned long (*signal_connect_data)(void *instance, const char *signal, void (*handler)(void),
                                         void *data, void *destroy, int flags);
    const char *(*widget_get_name)(void *widget);
    void *(*widget_get_parent)(void *widget);
    void (*widget_get_allocation)(void *widget, lh_gtk_rect *allocation);
    /* Windows (lh_window.c); NULL when this GTK lacks them (then windows are not followed). */
    lh_gtype window_type;
    void *(*widget_get_frame_clock)(void *widget);
    const char *(*window_get_title)(void *window);
    const char *(*signal_name)(unsigned signal_id);
} lh_gtk_api;

/* GTK's state in this process. */
enum { LH_GTK_UNKNOWN = 0, LH_GTK_PROBING = 1, LH_GTK_ON = 2, LH_GTK_OFF = 3, LH_GTK_ABSENT = 4 };

/* The API when GTK counting is on, else NULL. */
const lh_gtk_api *lh_gtk(void) LH_HIDDEN;

/* The "gtk" section of the summary (version, state, patched classes, wrapper pools, frames). */
void lh_gtk_summary(lh_json *j) LH_HIDDEN;

/* Wrapped vfunc calls: counts the outer call of (object, hook); a chain-up to the parent class's
 * implementation (the same object and hook directly below on this thread's stack) is not counted
 * again. Returns whether a frame was pushed (to be given to lh_vfunc_leave). */
bool lh_vfunc_enter(const void *object, unsigned hook, uint64_t size) LH_HIDDEN;
void lh_vfunc_leave(bool pushed) LH_HIDDEN;

/* A widget is being finalized: a new widget at its address later is a new object. */
void lh_gtk_forget(const void *widget) LH_HIDDEN;

#endif
