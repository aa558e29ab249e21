/*
 * lh_warning.h — the toolkit-warning detector's input (lh_warning.c): a message the toolkit is
 * about to log, formatted. Called by GLib's adapter on the logging thread, guard held.
 */
#ifndef LH_WARNING_H
#define LH_WARNING_H

#include "lh_runtime.h"

/* Reports `message` (formatted from `format`) when it is a GTK or GDK message about layout. */
void lh_warning_seen(unsigned hook, const char *domain, int level, const char *format, const char *message) LH_HIDDEN;

/* Whether a log domain is GTK's or GDK's (the only ones worth formatting). */
static inline bool lh_warning_domain(const char *domain) {
    return domain != NULL && (__builtin_strncmp(domain, "Gtk", 3) == 0 || __builtin_strncmp(domain, "Gdk", 3) == 0);
}

#endif
