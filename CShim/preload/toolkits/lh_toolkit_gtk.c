/*
 * lh_toolkit_gtk.c — the adapter for GTK 3 and GTK 4 widgets: type name (GType), widget name
 * (gtk_widget_get_name), parent, allocation; a window's title and frame clock; GTK's summary.
 *
 * Called from the vfunc wrappers (lh_gtk.c) on GTK's thread while the widget is being laid out,
 * so it is alive. Only GLib/GTK getters are called (no allocation, no locks); the API is the one
 * lh_gtk.c resolved. The caller holds the thread's guard.
 */
#include "lh_gtk.h"

static const char *type_name(const void *widget) {
    const lh_gtk_api *g = lh_gtk();
    return g != NULL ? g->type_name(lh_gtype_of_instance(widget)) : NULL;
}

/* gtk_widget_get_name() gives the type name when no name was set: that is not a name. */
static const char *name_of(const void *widget) {
    const lh_gtk_api *g = lh_gtk();
    if (g == NULL) return NULL;
    const char *name = g->widget_get_name((void *)widget);
    const char *type = type_name(widget);
    if (name == NULL || (type != NULL && __builtin_strcmp(name, type) == 0)) return NULL;
    return name;
}

static const void *parent_of(const void *widget) {
    const lh_gtk_api *g = lh_gtk();
    return g != NULL ? g->widget_get_parent((void *)widget) : NULL;
}

static bool geometry(const void *widget, int rect[4]);

static uint64_t size_of(const void *widget) {
    int r[4];
    return geometry(widget, r) ? (uint64_t)(uint32_t)r[2] << 32 | (uint32_t)r[3] : LH_GEOMETRY_NONE;
}

static bool geometry(const void *widget, int rect[4]) {
    const lh_gtk_api *g = lh_gtk();
    if (g == NULL) return false;
    lh_gtk_rect a;
    g->widget_get_allocation((void *)widget, &a);
    rect[0] = a.x, rect[1] = a.y, rect[2] = a.width, rect[3] = a.height;
    return true;
}

static const char *title_of(const void *window) {
    const lh_gtk_api *g = lh_gtk();
    return g != NULL && g->window_get_title != NULL ? g->window_get_title((void *)window) : NULL;
}

static const void *frame_clock_of(const void *window) {
    const lh_gtk_api *g = lh_gtk();
    return g != NULL && g->widget_get_frame_clock != NULL ? g->widget_get_frame_clock((void *)window) : NULL;
}

const lh_toolkit lh_toolkit_gtk = {
    .name = "gtk",
    .size_of = size_of,
    .type_name = type_name,
    .name_of = name_of,
    .parent_of = parent_of,
    .geometry = geometry,
    .title_of = title_of,
    .frame_clock_of = frame_clock_of,
    .attached = lh_gtk_attached,
    .detached = lh_gtk_detached,
    .summary = lh_gtk_summary,
};
