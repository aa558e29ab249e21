// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=inspector-status cause=deferred function=inspector_refresh_idle
/* second_window.c — a loop in a second window while the first window updates at 2 Hz.
 *
 * Window "main-window" is healthy: a clock label rewritten by a 500 ms timer (2 relayouts a
 * second, driven by time). Window "inspector" has the loop: its status label picks its text from
 * its own allocated width in an idle added from its allocation (GTK 3: "size-allocate"; GTK 4: the
 * app's CauseBin): wide → the compact text, narrow → the detailed text, so its width alternates
 * and it is relaid out in every frame of the inspector's frame clock, forever, while the main
 * window's clock shows a relayout only twice a second. (Each toplevel has its own frame clock.)
 * Re-requesting function: inspector_refresh_idle.
 */
#include "causes.h"

#define DETAILED "Inspecting 14 widgets, 3 with pending style changes"
#define COMPACT "14 widgets"

static GtkWidget *clock_label, *status;
static int threshold;
static const char *pending;
static guint refresh_source;

static gboolean clock_tick_timeout(gpointer data) {
  (void)data;
  char text[64];
  snprintf(text, sizeof text, "Elapsed %.1f s", cause_elapsed());
  gtk_label_set_text(GTK_LABEL(clock_label), text);
  return G_SOURCE_CONTINUE;
}

/* The bug: the status's wording follows its own width. */
__attribute__((noinline)) gboolean inspector_refresh_idle(gpointer data) {
  (void)data;
  refresh_source = 0;
  gtk_label_set_text(GTK_LABEL(status), pending);
  return G_SOURCE_REMOVE;
}

static void status_allocated(int width) {
  const char *want = width >= threshold ? COMPACT : DETAILED;
  if (strcmp(gtk_label_get_text(GTK_LABEL(status)), want) == 0) return;
  pending = want;
  if (!refresh_source) refresh_source = g_idle_add(inspector_refresh_idle, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_status_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  status_allocated(a->width);
}
#else
static void on_status_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)height, (void)d;
  status_allocated(width);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "second-window");
  GtkWidget *main_window = cause_window_new("main-window", "second-window: main", 300, 60);
  clock_label = gtk_label_new("Elapsed 0.0 s");
  gtk_widget_set_name(clock_label, "clock");
  gtk_widget_set_halign(clock_label, GTK_ALIGN_START);
  GtkWidget *main_box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  cause_box_append(main_box, clock_label);
  cause_set_child(main_window, main_box);
  g_timeout_add(500, clock_tick_timeout, NULL);

  GtkWidget *inspector = cause_window_new("inspector", "second-window: inspector", 420, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  status = gtk_label_new(DETAILED);
  gtk_widget_set_name(status, "inspector-status");
  threshold = (cause_text_width(status, DETAILED) + cause_text_width(status, COMPACT)) / 2;
#if GTK_MAJOR_VERSION == 3
  gtk_widget_set_halign(status, GTK_ALIGN_START);
  g_signal_connect(status, "size-allocate", G_CALLBACK(on_status_size_allocate), NULL);
  cause_box_append(box, status);
#else
  GtkWidget *bin = cause_bin_new(status, on_status_bin_allocated, NULL);
  gtk_widget_set_halign(bin, GTK_ALIGN_START);
  cause_box_append(box, bin);
#endif
  cause_set_child(inspector, box);
  return cause_run();
}
