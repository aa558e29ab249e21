// LOOPHUNTER-TRUTH: healthy
/* blink_restart.c — a recording indicator started by its first allocation blinks forever, each
 * blink adding the next one.
 *
 * A status row: a drawing area (the indicator's dot, "dot") and a label ("recording"). The dot
 * starts the blinking once it has a size: its first allocation handler (GTK 3 "size-allocate",
 * GTK 4 "resize": layout) adds a 150 ms timeout, which swaps the label's text between "REC" and
 * "REC ●" (a new size: the row is laid out again), then adds the next 150 ms timeout and removes
 * itself. Every blink is a callback added by the previous one, in a chain that layout began once:
 * about 7 relayouts a second, driven by time. Healthy.
 */
#include "causes.h"

static GtkWidget *label;
static gboolean started;

static gboolean blink_timeout(gpointer data) {
  (void)data;
  const char *now = gtk_label_get_text(GTK_LABEL(label));
  gtk_label_set_text(GTK_LABEL(label), g_strcmp0(now, "REC") == 0 ? "REC \u25cf" : "REC");
  g_timeout_add(150, blink_timeout, NULL);
  return G_SOURCE_REMOVE;
}

static void dot_allocated(void) {
  if (started) return;
  started = TRUE;
  g_timeout_add(150, blink_timeout, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_dot_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)a, (void)d;
  dot_allocated();
}
#else
static void on_dot_resize(GtkDrawingArea *area, int width, int height, gpointer d) {
  (void)area, (void)width, (void)height, (void)d;
  dot_allocated();
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "blink-restart");
  GtkWidget *window = cause_window_new("main-window", "blink-restart", 300, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *dot = gtk_drawing_area_new();
  gtk_widget_set_name(dot, "dot");
  gtk_widget_set_size_request(dot, 12, 12);
#if GTK_MAJOR_VERSION == 3
  g_signal_connect(dot, "size-allocate", G_CALLBACK(on_dot_size_allocate), NULL);
#else
  g_signal_connect(dot, "resize", G_CALLBACK(on_dot_resize), NULL);
#endif
  label = gtk_label_new("REC");
  gtk_widget_set_name(label, "recording");
  cause_box_append(box, dot);
  cause_box_append(box, label);
  cause_set_child(window, box);
  return cause_run();
}
