// LOOPHUNTER-TRUTH: loop widget=GtkDrawingArea name=log-view cause=deferred function=grow_timeout
/* grow.c — a widget growing a few pixels per frame, without end.
 *
 * A log view (a GtkDrawingArea in a vertical GtkScrolledWindow) makes sure there is "room for
 * one more line" below the last one: after each allocation it asks, from a zero-delay timeout added
 * in its allocation handler (GTK 3: "size-allocate"; GTK 4: "resize"), for a height request 3 px
 * taller than the height it was given. It always gets what it asked for (the scrolled window lets
 * it grow), so it asks again: the view grows by 3 px every frame and is relaid out every frame,
 * for as long as the program runs. The window itself does not grow (the scrolled window scrolls).
 * Re-requesting function: grow_timeout.
 */
#include "causes.h"

#define ROOM_FOR_ONE_MORE_LINE 3

static GtkWidget *view;
static guint grow_source;
static int grow_to;

/* The bug: the request is derived from the allocation it produces. */
__attribute__((noinline)) gboolean grow_timeout(gpointer data) {
  (void)data;
  grow_source = 0;
  gtk_widget_set_size_request(view, -1, grow_to);
  return G_SOURCE_REMOVE;
}

static void view_allocated(int height) {
  grow_to = height + ROOM_FOR_ONE_MORE_LINE;
  cause_note("log-view allocated %d tall, asks for %d", height, grow_to);
  if (!grow_source) grow_source = g_timeout_add(0, grow_timeout, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_view_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  view_allocated(a->height);
}
#else
static void on_view_resize(GtkDrawingArea *area, int width, int height, gpointer d) {
  (void)area, (void)width, (void)d;
  view_allocated(height);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "grow");
  GtkWidget *window = cause_window_new("main-window", "grow", 320, 240);
  GtkWidget *sw = cause_scrolled_new(GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_name(sw, "log-scroller");
  view = gtk_drawing_area_new();
  gtk_widget_set_name(view, "log-view");
  gtk_widget_set_size_request(view, -1, 100);
  gtk_widget_set_valign(view, GTK_ALIGN_START);
#if GTK_MAJOR_VERSION == 3
  g_signal_connect(view, "size-allocate", G_CALLBACK(on_view_size_allocate), NULL);
#else
  g_signal_connect(view, "resize", G_CALLBACK(on_view_resize), NULL);
#endif
  cause_set_child(sw, view);
  cause_set_child(window, sw);
  return cause_run();
}
