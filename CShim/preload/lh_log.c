/*
 * lh_log.c — GTK's own layout warnings as `toolkit-warning` reports (the ZIKConstraintsGuard row):
 * "layout continuously requested", "reported min width ... natural size must be >= min size",
 * "attempt to allocate ... with width -5", "without a current allocation", "queue_resize during
 * size_allocate", ... Each is reported with the stack that logged it and the widget its text
 * names, de-duplicated like every report (one per message format and stack per process), and is
 * still printed exactly as before: LoopHunter never swallows or alters the host's messages.
 *
 * GTK logs through g_log_structured_standard (g_warning with G_LOG_USE_STRUCTURED), g_log and
 * g_logv; inside libglib these all meet in g_log_structured_array, which is not reachable through
 * the PLT, so the three entry points are interposed. Forwarding:
 *   g_logv: untouched; g_log: through g_logv, as GLib's g_log itself does;
 *   g_log_structured_standard has no va_list variant: the message is formatted once with GLib's
 *   g_strdup_vprintf (what GLib does itself) and passed on as "%s" with that text, which GLib
 *   prints identically; under G_LOG_FLAG_RECURSION (GLib is out of memory) into a 1025-byte stack
 *   buffer, as GLib does.
 * Runs in the host's thread wherever it logs; the inspection runs under the thread's guard,
 * errno is preserved, the real logging runs outside the guard (as the host expects).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lh_glib.h"
#include "lh_preload.h"

#define LH_G_LOG_FLAG_RECURSION 1

typedef void (*logv_fn)(const char *domain, int level, const char *format, va_list args);
typedef void (*structured_fn)(const char *domain, int level, const char *file, const char *line,
                              const char *func, const char *format, ...);

static char *(*strdup_vprintf)(const char *format, va_list args);
static void (*g_free_fn)(void *memory);

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

static bool about_layout(const char *domain, const char *message) {
    if (domain == NULL || (strncmp(domain, "Gtk", 3) != 0 && strncmp(domain, "Gdk", 3) != 0)) return false;
    for (size_t i = 0; i < LH_ARRAY_COUNT(layout_phrases); i++)
        if (strstr(message, layout_phrases[i]) != NULL) return true;
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
 * names a widget by its name or CSS name), then its address. */
static void named_object(const char *domain, const char *message, lh_breach *b, char type[LH_OBJECT_TEXT]) {
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
        return;
    }
    lh_toolkit_copy_text(type, domain); /* no widget named: the domain ("Gdk") */
    b->named_type = type;
}

/* Looks at a message about to be logged (under the guard); reports it when it is about layout. */
static void inspect(unsigned hook, const char *domain, int level, const char *format, const char *message) {
    if (message == NULL || !about_layout(domain, message)) return;
    char type[LH_OBJECT_TEXT];
    lh_report_warning warning = {domain, level_name(level), message, format};
    lh_breach b = {
        .kind = "toolkit-warning",
        .hook = hook,
        .count = 1,
        .threshold = 1,
        .count_unit = "warning",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
        .warning = &warning,
        .fingerprint_text = format, /* the format, not the text: addresses and sizes vary */
    };
    named_object(domain, message, &b, type);
    lh_breach_report(&lh_tls_data, &b);
}

static bool resolve_glib(void) {
    if (strdup_vprintf == NULL) {
        *(void **)&strdup_vprintf = lh_host_function("g_strdup_vprintf");
        *(void **)&g_free_fn = lh_host_function("g_free");
    }
    return strdup_vprintf != NULL && g_free_fn != NULL;
}

/* For g_log/g_logv: formats a copy of the arguments (only for Gtk/Gdk domains) and inspects. */
static void inspect_args(unsigned hook, const char *domain, int level, const char *format, va_list args) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || format == NULL || (level & LH_G_LOG_FLAG_RECURSION) || !lh_active(LH_FAMILY_LOG)) return;
    lh_count_hook_call(hook);
    if (domain == NULL || (strncmp(domain, "Gtk", 3) != 0 && strncmp(domain, "Gdk", 3) != 0)) return;
    int saved = errno;
    t->guard++;
    if (resolve_glib()) {
        va_list copy;
        va_copy(copy, args);
        char *message = strdup_vprintf(format, copy);
        va_end(copy);
        inspect(hook, domain, level, format, message);
        g_free_fn(message);
    }
    t->guard--;
    errno = saved;
}

LH_EXPORT void g_logv(const char *domain, int level, const char *format, va_list args) {
    logv_fn real = (logv_fn)lh_hook_original(LH_HOOK_g_logv);
    inspect_args(LH_HOOK_g_logv, domain, level, format, args);
    if (real != NULL) real(domain, level, format, args);
}

LH_EXPORT void g_log(const char *domain, int level, const char *format, ...) {
    logv_fn real = (logv_fn)lh_hook_original(LH_HOOK_g_logv);
    va_list args;
    va_start(args, format);
    inspect_args(LH_HOOK_g_log, domain, level, format, args);
    if (real != NULL) real(domain, level, format, args); /* GLib's g_log: va_start + g_logv */
    va_end(args);
}

LH_EXPORT void g_log_structured_standard(const char *domain, int level, const char *file, const char *line,
                                         const char *func, const char *format, ...) {
    structured_fn real = (structured_fn)lh_hook_original(LH_HOOK_g_log_structured_standard);
    if (real == NULL) return;
    va_list args;
    va_start(args, format);
    if (level & LH_G_LOG_FLAG_RECURSION) {
        /* GLib is out of memory: format on the stack exactly as it does, log, nothing else. */
        char buffer[1025];
        vsnprintf(buffer, sizeof buffer, format, args);
        va_end(args);
        real(domain, level, file, line, func, "%s", buffer);
        return;
    }
    int saved = errno;
    bool glib = resolve_glib();
    errno = saved;
    if (!glib) { /* g_log_structured_standard without g_strdup_vprintf: not a GLib we know */
        char buffer[1025];
        vsnprintf(buffer, sizeof buffer, format, args);
        va_end(args);
        real(domain, level, file, line, func, "%s", buffer);
        return;
    }
    char *message = strdup_vprintf(format, args); /* what GLib itself would do first */
    va_end(args);
    lh_tls *t = &lh_tls_data;
    if (t->guard == 0 && lh_active(LH_FAMILY_LOG)) {
        lh_count_hook_call(LH_HOOK_g_log_structured_standard);
        saved = errno;
        t->guard++;
        inspect(LH_HOOK_g_log_structured_standard, domain, level, format, message);
        t->guard--;
        errno = saved;
    }
    real(domain, level, file, line, func, "%s", message);
    g_free_fn(message);
}
