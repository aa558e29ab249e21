/*
 * lh_toolkit_qt.c — the adapter for Qt 5 and Qt 6 objects: class name (the meta-object's, without
 * the suffix of a QML-declared type), objectName, parent (a Quick item's visual parent, then its
 * window; any other object's QObject parent), geometry; a window's title and the clock whose frames
 * lay it out.
 *
 * Called on Qt's GUI thread while the object is being laid out, requested or reported (so it is
 * alive), guard held. Only Qt's getters are called: QObject::metaObject (the first slot of every
 * QObject's vtable), QMetaObject::className, QObject::objectName and the windows' titles (a QString
 * handed back at once: a shared copy, no allocation), QWidget::frameGeometry, QQuickItem's x, y,
 * width, height, parentItem, window; and QObject's parent read from its QObjectData (public ABI:
 * vptr, q_ptr, parent).
 */
#include <string.h>

#include "lh_qt.h"

typedef const void *(*meta_object_fn)(const void *object);

/* A QML-declared type's meta-object is named after its C++ base plus "_QML_n" or "_QMLTYPE_n": the
 * base is named instead (the meta-object's superdata, its first word in Qt 5 and Qt 6). */
static const char *type_name(const void *object) {
    const lh_qt_api *q = lh_qt();
    if (q == NULL || object == NULL) return NULL;
    const void *mo = ((meta_object_fn)(*(void *const *const *)object)[0])(object);
    for (int depth = 0; mo != NULL && depth < 16; depth++) {
        const char *name = q->class_name(mo);
        if (name == NULL || strstr(name, "_QML") == NULL) return name;
        mo = *(const void *const *)mo;
    }
    return NULL;
}

static const char *name_of(const void *object) {
    static __thread char name[LH_OBJECT_TEXT] __attribute__((tls_model("initial-exec")));
    const lh_qt_api *q = lh_qt();
    if (q == NULL || object == NULL) return NULL;
    void *string[3] = {0}; /* a QString: one word in Qt 5, three in Qt 6 */
    q->object_name(string, object);
    lh_qt_string_take(string, name, sizeof name);
    return name[0] != '\0' ? name : NULL;
}

static const void *object_parent(const void *object) {
    const char *d = *(const char *const *)((const char *)object + 8); /* QObject::d_ptr */
    return d != NULL ? *(const void *const *)(d + 16) : NULL;    /* QObjectData::parent */
}

static const void *parent_of(const void *object) {
    const lh_qt_api *q = lh_qt();
    if (q == NULL || object == NULL) return NULL;
    if (lh_qt_kind(object) == LH_QT_ITEM && q->item_parent != NULL) {
        const void *p = q->item_parent(object);
        return p != NULL ? p : q->item_window(object); /* the root item's parent: its window */
    }
    return object_parent(object);
}

static int rounded(double v) { return (int)(v < 0 ? v - 0.5 : v + 0.5); }

static bool geometry(const void *object, int rect[4]) {
    const lh_qt_api *q = lh_qt();
    if (q == NULL || object == NULL) return false;
    lh_qt_rect r;
    switch (lh_qt_kind(object)) {
    case LH_QT_WIDGET:
        if (q->widget_frame_geometry == NULL) return false;
        r = q->widget_frame_geometry(object);
        break;
    case LH_QT_LAYOUT:
        if (q->layout_geometry == NULL) return false;
        r = q->layout_geometry(object);
        break;
    case LH_QT_ITEM:
        if (q->item_width == NULL) return false;
        rect[0] = rounded(q->item_x(object)), rect[1] = rounded(q->item_y(object));
        rect[2] = rounded(q->item_width(object)), rect[3] = rounded(q->item_height(object));
        return true;
    default: return false;
    }
    rect[0] = r.x1, rect[1] = r.y1, rect[2] = r.x2 - r.x1 + 1, rect[3] = r.y2 - r.y1 + 1;
    return true;
}

static uint64_t size_of(const void *object) {
    int r[4];
    return geometry(object, r) ? (uint64_t)(uint32_t)r[2] << 32 | (uint32_t)r[3] : LH_GEOMETRY_NONE;
}

/* A widget's size as its inline getters (width(), height(), size(), rect(), geometry()) read it:
 * QWidget's `data` (QWidgetData *, public ABI in qwidget.h, after QObject's and QPaintDevice's
 * members: offset 40 in Qt 5, 32 in Qt 6) points at the data whose `crect` (x1, y1, x2, y2) is at
 * offset 20 (Qt 5.15 and 6.4, measured with offsetof). The field given is the aligned 8 bytes at
 * offset 24, y1 and x2: width() reads x1 and x2, height() y1 and y2 (a breakpoint covers 8
 * aligned bytes at most). Checked once, on the first widget that is not a window, against
 * QWidget::frameGeometry (a window's includes its frame): if they differ, no widget's field is
 * given. GUI thread only. */
static const void *size_field(const void *object) {
    static int layout_holds; /* 0: not checked yet, 1: it holds, -1: it does not */
    const lh_qt_api *q = lh_qt();
    if (q == NULL || object == NULL || layout_holds < 0 || q->widget_window == NULL || q->widget_frame_geometry == NULL ||
        lh_qt_kind(object) != LH_QT_WIDGET)
        return NULL;
    const char *data = *(const char *const *)((const char *)object + (q->major == 5 ? 40 : 32));
    if (data == NULL) return NULL;
    const int *crect = (const int *)(data + 20);
    if (layout_holds == 0) {
        if (q->widget_window(object) == object) return NULL; /* a window: checked on a child first */
        lh_qt_rect r = q->widget_frame_geometry(object);
        layout_holds = r.x1 == crect[0] && r.y1 == crect[1] && r.x2 == crect[2] && r.y2 == crect[3] ? 1 : -1;
        if (layout_holds < 0) return NULL;
    }
    return crect + 1; /* y1, x2 */
}

/* Qt's code: its libraries, and the plugins and QML modules it ships (styles, platform themes,
 * Quick Controls), which read widgets' and items' geometry for their own work. */
const char *const lh_qt_libraries[] = {"libQt5", "libQt6", "/qt5/plugins/", "/qt6/plugins/", "/qt5/qml/", "/qt6/qml/", NULL};

static const char *title_of(const void *window) {
    static __thread char title[LH_OBJECT_TEXT] __attribute__((tls_model("initial-exec")));
    const lh_qt_api *q = lh_qt();
    if (q == NULL || window == NULL) return NULL;
    void *string[3] = {0};
    int kind = lh_qt_kind(window);
    if (kind == LH_QT_WIDGET && q->widget_window_title != NULL) q->widget_window_title(string, window);
    else if ((kind == LH_QT_QUICK_WINDOW || kind == LH_QT_WINDOW) && q->window_title != NULL) q->window_title(string, window);
    else return NULL;
    lh_qt_string_take(string, title, sizeof title);
    return title[0] != '\0' ? title : NULL;
}

static const void *frame_clock_of(const void *root) { return lh_qt() != NULL ? lh_qt_clock_of(root) : NULL; }

const lh_toolkit lh_toolkit_qt = {
    .name = "qt",
    .size_of = size_of,
    .type_name = type_name,
    .name_of = name_of,
    .parent_of = parent_of,
    .geometry = geometry,
    .title_of = title_of,
    .frame_clock_of = frame_clock_of,
    .frames_on_demand = true,
    .size_field = size_field,
    .libraries = lh_qt_libraries,
    .forget_unloaded = lh_qt_forget_unloaded,
    .summary = lh_qt_summary,
};
