// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=connection cause=deferred function=fit_status_idle
/* late_start.c — a loop that starts after 2 s of healthy running.
 *
 * For its first 2 s the program is healthy: a "Connecting…" label is rewritten by a 250 ms timer
 * (4 relayouts a second, driven by time). At 2 s the connection is "established": the timer stops
 * and the app turns on its auto-fitting status, which picks the label's wording from the label's
 * own allocated width in an idle added from its allocation (GTK 3: "size-allocate"; GTK 4: the
 * app's CauseBin): wide → the short text, narrow → the long one. From then on the label is
 * relaid out every frame, its width alternating, until the program exits.
 * Re-requesting function: fit_status_idle.
 */
#include "causes.h"

#define LONG_TEXT "Connected to build server ci-7.example.org (3 agents)"
#define SHORT_TEXT "Connected"
#define HEALTHY_MS 2000

static GtkWidget *connection;
static int threshold;
static gboolean fitting;
static const char *pending;
static guint fit_source, connecting_source;
static int dots;

static gboolean connecting_timeout(gpointer data) {
  (void)data;
  static const char *texts[] = {"Connecting", "Connecting.", "Connecting..", "Connecting..."};
  gtk_label_set_text(GTK_LABEL(connection), texts[++dots % 4]);
  return G_SOURCE_CONTINUE;
}

/* The bug: the wording follows the width the wording produces. */
__attribute__((noinline)) gboolean fit_status_idle(gpointer data) {
  (void)data;
  fit_source = 0;
  gtk_label_set_text(GTK_LABEL(connection), pending);
  return G_SOURCE_REMOVE;
}

static void connection_allocated(int width) {
  if (!fitting) return;
  const char *want = width >= threshold ? SHORT_TEXT : LONG_TEXT;
  if (strcmp(gtk_label_get_text(GTK_LABEL(connection)), want) == 0) return;
  pending = want;
  if (!fit_source) fit_source = g_idle_add(fit_status_idle, NULL);
}

static gboolean connected_timeout(gpointer data) {
  (void)data;
  g_source_remove(connecting_source);
  connecting_source = 0;
  fitting = TRUE;
  cause_note("connected: auto-fit on");
  gtk_label_set_text(GTK_LABEL(connection), LONG_TEXT);
  return G_SOURCE_REMOVE;
}

#if GTK_MAJOR_VERSION == 3
static void on_connection_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  connection_allocated(a->width);
}
#else
static void on_connection_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)height, (void)d;
  connection_allocated(width);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "late-start");
  GtkWidget *window = cause_window_new("main-window", "late-start", 460, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  connection = gtk_label_new("Connecting");
  gtk_widget_set_name(connection, "connection");
  threshold = (cause_text_width(connection, LONG_TEXT) + cause_text_width(connection, SHORT_TEXT)) / 2;
#if GTK_MAJOR_VERSION == 3
  gtk_widget_set_halign(connection, GTK_ALIGN_START);
  g_signal_connect(connection, "size-allocate", G_CALLBACK(on_connection_size_allocate), NULL);
  cause_box_append(box, connection);
#else
  GtkWidget *bin = cause_bin_new(connection, on_connection_bin_allocated, NULL);
  gtk_widget_set_halign(bin, GTK_ALIGN_START);
  cause_box_append(box, bin);
#endif
  cause_set_child(window, box);
  connecting_source = g_timeout_add(250, connecting_timeout, NULL);
  g_timeout_add(HEALTHY_MS, connected_timeout, NULL);
  return cause_run();
}
