/*
 * lh_gtk.h — GTK 3 and GTK 4: the API LoopHunter resolves from the running GTK (lh_gtk.c), shared
 * with GTK's adapter (lh_toolkit_gtk.c) and GLib's glue (lh_glib.c); and the notes of GTK's glue
 * that the hook table's generated wrappers call.
 *
 * Nothing here links GLib or GTK: every function is looked up at run time the first time a
 * widget, layout manager or frame clock is created in a process that has GTK. Called on the
 * host's GTK thread, inside g_object_new, a GTK layout vfunc or a frame-clock signal; no
 * allocation of our own, no lock anything waits on.
 */
#ifndef LH_GTK_H
#define LH_GTK_H

#include "lh_glib.h"
#include "lh_runtime.h"

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
    /* Windows (the window detector); NULL when this GTK lacks them (then windows are not followed). */
    lh_gtype window_type;
    void *(*widget_get_frame_clock)(void *widget);
    const char *(*window_get_title)(void *window);
    const char *(*signal_name)(unsigned signal_id);
    /* GTK 3 only: GTK_WINDOW_TOPLEVEL (0) or GTK_WINDOW_POPUP (1: a menu's, a tooltip's, a combo
     * box's list: not a window of the application's). NULL in GTK 4, which has no popup windows. */
    int (*window_get_window_type)(void *window);
} lh_gtk_api;

/* GTK's state in this process. */
enum { LH_GTK_UNKNOWN = 0, LH_GTK_PROBING = 1, LH_GTK_ON = 2, LH_GTK_OFF = 3, LH_GTK_ABSENT = 4 };

/* The API when GTK counting is on, else NULL. */
const lh_gtk_api *lh_gtk(void) LH_HIDDEN;
/* The "gtk" section of the summary (version, state, patched classes, wrapper pools, frames). */
void lh_gtk_summary(lh_json *j) LH_HIDDEN;
/* `loophunter attach` (lh_toolkit.h): classes initialised before the session are patched and the
 * existing windows' frame clocks followed; at its end the class slots are given back. */
void lh_gtk_attached(void) LH_HIDDEN;
void lh_gtk_detached(void) LH_HIDDEN;

/* ---- the notes of GTK's glue (lh_gtk.c), called by generated wrappers, guard held ------------- */

/* g_object_new_valist / _with_properties / newv: before (a GTK class about to get its first
 * instance is patched; returns 0) and after (frame clocks get their handlers, windows are noted).
 * The arguments after `type` are those of the row, and are not read. */
uintptr_t lh_gtk_before_new(unsigned hook, lh_gtype type, ...) LH_HIDDEN;
void lh_gtk_after_new(unsigned hook, uintptr_t token, void *object, lh_gtype type, ...) LH_HIDDEN;
/* gtk_widget_show[_all], gtk_window_present / gtk_widget_set_visible. */
void lh_gtk_shown(unsigned hook, void *widget) LH_HIDDEN;
void lh_gtk_visible(unsigned hook, void *widget, int visible) LH_HIDDEN;

/* ---- layout requests and causes (lh_gtk_causes.c) ---------------------------------------------- */

/* GTK counting is on (lh_gtk.c's probe): find the request entry points' extents in libgtk
 * (`libgtk`: its code) and start recording requests. */
void lh_gtk_causes_start(const lh_gtk_api *api, lh_range libgtk) LH_HIDDEN;
/* The notes of the size getters' rows: the application read `widget`'s size. */
void lh_gtk_size_read(unsigned hook, void *widget) LH_HIDDEN;
void lh_gtk_size_read_into(unsigned hook, void *widget, lh_gtk_rect *allocation) LH_HIDDEN;
void lh_gtk_size_read_into_baseline(unsigned hook, void *widget, lh_gtk_rect *allocation, int *baseline) LH_HIDDEN;
void lh_gtk_size_read_oriented(unsigned hook, void *widget, int orientation) LH_HIDDEN;
/* The causes' part of the "gtk" summary section. */
void lh_gtk_causes_summary(lh_json *j) LH_HIDDEN;

#endif
