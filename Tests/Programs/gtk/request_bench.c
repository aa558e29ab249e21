/* request_bench.c — built twice, as gtk3-request-bench and gtk4-request-bench: the cost of one
 * layout request (gtk_widget_queue_resize on a shown label, which GTK then coalesces: the call
 * itself is cheap, what LoopHunter adds to it shows), plain or under the preload. N requests are
 * made from main (outside any callback: an outside cause), then, in the first frame's tick callback,
 * N more after reading the label's width (a result cause: the widget's window and frame clock are
 * looked up for each). Prints "ns_per_request outside=<x> result=<y>". */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

static long calls;
static double result_ns;
static gboolean done;

static gboolean in_tick(GtkWidget *label, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
#if GTK_MAJOR_VERSION >= 4
  int width = gtk_widget_get_width(label);
#else
  int width = gtk_widget_get_allocated_width(label);
#endif
  gint64 t0 = g_get_monotonic_time();
  for (long i = 0; i < calls; i++) gtk_widget_queue_resize(label);
  result_ns = (g_get_monotonic_time() - t0) * 1000.0 / calls;
  if (width < 0) printf("never\n");
  done = TRUE;
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  calls = argc > 1 ? atol(argv[1]) : 1000000;
#if GTK_MAJOR_VERSION >= 4
  gtk_init();
  GtkWidget *window = gtk_window_new();
  GtkWidget *label = gtk_label_new("request");
  gtk_window_set_child(GTK_WINDOW(window), label);
  gtk_window_present(GTK_WINDOW(window));
#else
  gtk_init(NULL, NULL);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  GtkWidget *label = gtk_label_new("request");
  gtk_container_add(GTK_CONTAINER(window), label);
  gtk_widget_show_all(window);
#endif
  gint64 t0 = g_get_monotonic_time();
  for (long i = 0; i < calls; i++) gtk_widget_queue_resize(label);
  double outside_ns = (g_get_monotonic_time() - t0) * 1000.0 / calls;
  gtk_widget_add_tick_callback(label, in_tick, NULL, NULL);
  while (!done) g_main_context_iteration(NULL, TRUE);
  printf("ns_per_request outside=%.1f result=%.1f\n", outside_ns, result_ns);
  return 0;
}
