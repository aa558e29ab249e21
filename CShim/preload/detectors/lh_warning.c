/*
 * lh_warning.c — the toolkit-warning detector: GTK's (and Qt's) own layout warnings as
 * `toolkit-warning` reports: "layout continuously requested", "reported min width ... natural size must be >= min
 * size", "attempt to allocate ... with width -5", "without a current allocation", "queue_resize
 * during size_allocate", ... Each is reported with the stack that logged it and the widget its text
 * names (or, when it names none, the widget being laid out or measured on the thread when GTK
 * warned: the runtime's layout in progress, lh_layout_in_progress), de-duplicated like every report (one per message format and stack per process), and is
 * still printed exactly as before: LoopHunter never swallows or alters the host's messages.
 *
 * GLib's logging entry points are interposed by its adapter (toolkits/lh_glib.c), which formats
 * each Gtk/Gdk message once and gives it here (lh_warning_seen) with the guard held; the real
 * logging runs outside the guard, exactly as the host expects. Qt's messages come from LoopHunter's
 * Qt message handler (toolkits/lh_qt_log.c) under the domain "Qt": a Quick polish loop, a QML
 * binding loop, Qt Quick Layouts' polish loop, QLayout's complaints.
 */
#define _GNU_SOURCE
#include <string.h>

#include "lh_breach.h"
#include "lh_glib.h"
#include "lh_warning.h"

/* Texts of GTK and GDK warnings about layout (GTK 3.24, 4.8; some only in debug builds). */
static const char *const layout_phrases[] = {
    "layout continuously requested",
    "queue_resize",
    "Allocating size to",
    "without calling gtk_widget_measure",
    "without calling gtk_widget_get_preferred",
    "natural size must be >= min size",
    "reported min width",
    "reported min height",
    "reported min size",
    "attempt to allocate",
    "without a current allocation",
    "minimum height: -",
    "minimum width: -",
    "Negative content",
    "negative size",
    "size_allocate",
};

/* Qt 5 and Qt 6 (domain "Qt": toolkits/lh_qt_log.c): Qt Quick's polish loop detector, Qt Quick
 * Layouts', the QML engine's binding loops, QLayout's complaints. */
static const char *const qt_layout_phrases[] = {
    "polish() loop",
    "Polish loop detected",
    "Binding loop detected",
    "QLayout:",
    "QLayout::",
    "QGridLayout:",
    "QBoxLayout:",
    "QFormLayout:",
    "QStackedLayout:",
    "QWidget::setLayout:",
};

static bool about_layout(const char *domain, const char *message) {
    if (domain == NULL) return false;
    const char *const *phrases = layout_phrases;
    size_t n = LH_ARRAY_COUNT(layout_phrases);
    if (strcmp(domain, "Qt") == 0) {
        phrases = qt_layout_phrases, n = LH_ARRAY_COUNT(qt_layout_phrases);
    } else if (strncmp(domain, "Gtk", 3) != 0 && strncmp(domain, "Gdk", 3) != 0) {
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (strstr(message, phrases[i]) != NULL) return true;
    return false;
}

static const char *level_name(int level) {
    if (level & LH_G_LOG_LEVEL_ERROR) return "error";
    if (level & LH_G_LOG_LEVEL_CRITICAL) return "critical";
    if (level & LH_G_LOG_LEVEL_WARNING) return "warning";
    if (level & LH_G_LOG_LEVEL_MESSAGE) return "message";
    return "info";
}

/* The widget a message names: "GtkLabel 0x55d0c0a0" (a type name then an address). Only the text
 * is used: the widget may be gone, nothing is dereferenced. */
static bool name_char(char c) {
    return c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The object a message names: "GtkLabel 0x55d0c0a0" (a type) or "main-window 0x55d0c0a0" (GTK 4
 * names a widget by its name or CSS name), then its address. Returns whether it names one. */
static bool named_object(const char *domain, const char *message, lh_breach *b, char type[LH_OBJECT_TEXT]) {
    for (const char *p = strstr(message, " 0x"); p != NULL; p = strstr(p + 3, " 0x")) {
        const char *start = p;
        while (start > message && name_char(start[-1])) start--;
        if (start == p) continue;
        size_t n = (size_t)(p - start) < LH_OBJECT_TEXT - 1 ? (size_t)(p - start) : LH_OBJECT_TEXT - 1;
        memcpy(type, start, n);
        type[n] = '\0';
        uintptr_t address = 0;
        for (const char *h = p + 3; (*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f'); h++)
            address = address * 16 + (uintptr_t)(*h <= '9' ? *h - '0' : *h - 'a' + 10);
        b->object = (const void *)address;
        b->named_type = type;
        return true;
    }
    lh_toolkit_copy_text(type, domain); /* no widget named: the domain ("Gdk") */
    b->named_type = type;
    return false;
}

void lh_warning_seen(unsigned hook, const char *domain, int level, const char *format, const char *message) {
    if (message == NULL || !about_layout(domain, message)) return;
    char type[LH_OBJECT_TEXT];
    lh_report_warning warning = {domain, level_name(level), message, format};
    lh_breach b = {
        .kind = LH_KIND_TOOLKIT_WARNING,
        .hook = hook,
        .count = 1,
        .threshold = 1,
        .count_unit = "warning",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
        .warning = &warning,
        .fingerprint_text = format, /* the format, not the text: addresses and sizes vary */
    };
    if (named_object(domain, message, &b, type)) {
        warning.object_source = "message";
    } else {
        /* The text names no widget: the one whose layout (or measure) is running on this thread,
         * if any. It is alive (its layout is on the stack) and is described through its adapter. */
        const lh_slot *s = lh_layout_in_progress(&lh_tls_data);
        if (s != NULL) {
            b.object = lh_slot_object(s);
            b.object_slot = s;
            b.named_type = NULL;
            warning.object_source = "layout";
        }
    }
    lh_breach_report(&lh_tls_data, &b);
}


const lh_detector lh_detector_warning = {
    .name = "warning",
};
