/*
 * lh_handoff.c — the hand-off detector: a single-instance application (GApplication) that, finding
 * its primary instance already running on the D-Bus session, hands it its command line and exits.
 * Such a process runs no GUI of its own: LoopHunter watched nothing of the application, and
 * `loophunter run` must say so rather than call the run clean. It writes no report, only the
 * summary's `gapplication` section: {"id": "org.gnome.gedit", "remote": true} (`remote` null while
 * the application is not registered yet).
 *
 * Fed by GLib's glue (toolkits/lh_glib.c: rows g_application_run and g_application_register, and
 * the application's "notify::is-registered") on the application's thread, guard held; read by the summary writer on any thread. State: the id
 * (copied, at most 255 bytes) is written before `state` is published with a release store; the
 * reader acquires `state` first. A second application registering at the same instant as a
 * summary is written could show a mixed id: one application per process is the rule.
 */
#include <string.h>

#include "lh_detectors.h"
#include "lh_handoff.h"

enum { APP_NONE = 0, APP_RUNNING = 1, APP_PRIMARY = 2, APP_REMOTE = 3 };

static char app_id[256];
static bool app_has_id;
static _Atomic int app_state; /* APP_*; release/acquire publishes app_id */

static void keep_id(const char *id) {
    app_has_id = id != NULL;
    size_t n = id != NULL ? strnlen(id, sizeof app_id - 1) : 0;
    if (n > 0) memcpy(app_id, id, n);
    app_id[n] = '\0';
}

void lh_handoff_app_running(const char *id) {
    keep_id(id);
    /* release: the id before the state that says it is there. */
    lh_store_release(&app_state, APP_RUNNING);
}

void lh_handoff_app_registered(const char *id, bool remote) {
    keep_id(id);
    /* release: the id before the state that says it is there. */
    lh_store_release(&app_state, remote ? APP_REMOTE : APP_PRIMARY);
}

/* A forked child is not the application instance its parent registered. */
static void after_fork(void) { lh_store_relaxed(&app_state, APP_NONE); }

static void summary(lh_json *j) {
    /* acquire: pairs with the release stores above (the id is complete). */
    int state = lh_load_acquire(&app_state);
    if (state == APP_NONE) {
        lh_json_null(j, "gapplication");
        return;
    }
    lh_json_begin_object(j, "gapplication");
    lh_json_string(j, "id", app_has_id ? app_id : NULL);
    if (state == APP_RUNNING)
        lh_json_null(j, "remote");
    else
        lh_json_bool(j, "remote", state == APP_REMOTE);
    lh_json_end_object(j);
}

const lh_detector lh_detector_handoff = {
    .name = "handoff",
    .after_fork = after_fork,
    .summary = summary,
};
