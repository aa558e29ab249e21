// LOOPHUNTER-TRUTH: loop widget=GtkDrawingArea name=sidebar cause=in-layout function=on_clock_layout
/* layout_handler.c — a frame-clock "layout" handler setting a size request against the allocation.
 *
 * The app keeps its sidebar "responsive" from the window's frame clock: a handler connected (after
 * GTK's own) to GdkFrameClock::layout reads the sidebar's allocated width and collapses the sidebar
 * (120 px) when it is wider than 150 px, or expands it (180 px) when it is narrower. So every
 * layout pass gives the sidebar the width that makes the handler ask for the other one: the request
 * is made inside the layout phase, GDK runs the phase again (up to 4 times a frame, then prints
 * "layout continuously requested, giving up after 4 tries"), and the next frame starts over.
 * Re-requesting function: on_clock_layout.
 */
#include "causes.h"

static GtkWidget *sidebar;

/* The bug: a layout-phase handler that changes what the layout phase computes. */
__attribute__((noinline)) void on_clock_layout(GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  int width = gtk_widget_get_allocated_width(sidebar);
  if (width <= 1) return; /* not laid out yet */
  gtk_widget_set_size_request(sidebar, width > 150 ? 120 : 180, -1);
}

static void on_realize(GtkWidget *window, gpointer data) {
  (void)data;
  g_signal_connect_after(gtk_widget_get_frame_clock(window), "layout",
                         G_CALLBACK(on_clock_layout), NULL);
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "layout-handler");
  GtkWidget *window = cause_window_new("main-window", "layout-handler", 480, 200);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  sidebar = gtk_drawing_area_new();
  gtk_widget_set_name(sidebar, "sidebar");
  gtk_widget_set_size_request(sidebar, 180, -1);
  cause_box_append(box, sidebar);
  GtkWidget *content = gtk_label_new("Document");
  gtk_widget_set_hexpand(content, TRUE);
  cause_box_append(box, content);
  cause_set_child(window, box);
  g_signal_connect(window, "realize", G_CALLBACK(on_realize), NULL);
  return cause_run();
}
