/* gapp_handoff.c — a single-instance GApplication (GIO only, no display), for `loophunter run`'s
 * hand-off verdict: started twice on one D-Bus session, the second instance hands its activation to
 * the first and exits at once, as gedit, nautilus or any GtkApplication does.
 *
 * lh-gapp APP_ID [SECONDS]
 *   The primary instance prints "lh-gapp: primary", creates the file $LH_GAPP_READY (when set) once
 *   it is registered and activated, prints "lh-gapp: activated again" for each remote activation,
 *   and exits 0 after SECONDS (default 30). A remote instance prints "lh-gapp: handed off" and
 *   exits 0 at once.
 */
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned activations;

static gboolean release(gpointer app) {
  g_application_release(G_APPLICATION(app));
  return G_SOURCE_REMOVE;
}

static void activate(GApplication *app, gpointer data) {
  unsigned seconds = GPOINTER_TO_UINT(data);
  if (activations++ > 0) {
    printf("lh-gapp: activated again\n");
    fflush(stdout);
    return;
  }
  printf("lh-gapp: primary\n");
  fflush(stdout);
  g_application_hold(app);
  g_timeout_add_seconds(seconds, release, app);
  const char *ready = getenv("LH_GAPP_READY");
  if (ready != NULL) g_file_set_contents(ready, "ready\n", -1, NULL);
}

int main(int argc, char **argv) {
  if (argc < 2 || !g_application_id_is_valid(argv[1])) {
    fprintf(stderr, "usage: lh-gapp APP_ID [SECONDS]\n");
    return 64;
  }
  unsigned seconds = argc > 2 ? (unsigned)atoi(argv[2]) : 30;
  GApplication *app = g_application_new(argv[1], G_APPLICATION_DEFAULT_FLAGS);
  g_signal_connect(app, "activate", G_CALLBACK(activate), GUINT_TO_POINTER(seconds));
  int status = g_application_run(app, 1, argv);
  if (activations == 0) printf("lh-gapp: handed off\n");
  g_object_unref(app);
  return status;
}
