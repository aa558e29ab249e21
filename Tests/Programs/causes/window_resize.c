// LOOPHUNTER-TRUTH: healthy
/* window_resize.c — a window edge dragged: the toplevel is resized every 50 ms.
 *
 * A 50 ms timer moves the window's right edge back and forth between 300 and 500 px, as a user
 * dragging the edge would (GTK 3: gtk_window_resize(); GTK 4: gtk_window_set_default_size(), which
 * GTK 4 applies to a mapped window too). Every resize lays the window out again, with a wrapping
 * paragraph, an entry and a row of buttons that reflow: 20 relayouts a second, all caused from
 * outside (the window size), never by what the layout produced. Healthy.
 */
#include "causes.h"
#include <math.h>

static GtkWidget *window;

static gboolean drag_edge_timeout(gpointer data) {
  (void)data;
  double t = cause_elapsed();
  int width = 400 + (int)(100 * sin(t * 2 * G_PI / 3.0));
#if GTK_MAJOR_VERSION == 3
  gtk_window_resize(GTK_WINDOW(window), width, 220);
#else
  gtk_window_set_default_size(GTK_WINDOW(window), width, 220);
#endif
#if GTK_MAJOR_VERSION == 3
  cause_note("edge dragged to %d (window is %d wide)", width,
             gtk_widget_get_allocated_width(window));
#else
  cause_note("edge dragged to %d (window is %d wide)", width, gtk_widget_get_width(window));
#endif
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "window-resize");
  window = cause_window_new("main-window", "window-resize", 400, 220);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *para = gtk_label_new(
      "Resize me: this paragraph wraps to the width of the window, and the row of buttons "
      "below it shares whatever room is left between them.");
  gtk_widget_set_name(para, "paragraph");
#if GTK_MAJOR_VERSION == 3
  gtk_label_set_line_wrap(GTK_LABEL(para), TRUE);
#else
  gtk_label_set_wrap(GTK_LABEL(para), TRUE);
#endif
  gtk_label_set_max_width_chars(GTK_LABEL(para), 20);
  cause_box_append(box, para);
  cause_box_append(box, gtk_entry_new());
  GtkWidget *row = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_set_homogeneous(GTK_BOX(row), TRUE);
  const char *names[] = {"Open", "Save", "Close"};
  for (int i = 0; i < 3; i++) {
    GtkWidget *b = gtk_button_new_with_label(names[i]);
    gtk_widget_set_hexpand(b, TRUE);
    cause_box_append(row, b);
  }
  cause_box_append(box, row);
  cause_set_child(window, box);
  g_timeout_add(50, drag_edge_timeout, NULL);
  return cause_run();
}
