/*
 * lh_handoff.h — the hand-off detector's inputs (lh_handoff.c): what GLib's glue (toolkits/lh_glib.c)
 * learns of a GApplication in this process. Called on the application's thread, guard held; the
 * application id is copied at once (the caller's pointer is GLib's).
 */
#ifndef LH_HANDOFF_H
#define LH_HANDOFF_H

#include "lh_runtime.h"

/* g_application_run has begun for the application `id` (NULL: it has none), not registered yet:
 * whether it is the primary instance is not known yet. */
void lh_handoff_app_running(const char *id) LH_HIDDEN;
/* The application `id` is registered on the session bus, as the primary instance (`remote`
 * false) or as a remote one that hands its command line to the primary and ends. */
void lh_handoff_app_registered(const char *id, bool remote) LH_HIDDEN;

#endif
