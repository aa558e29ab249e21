// LOOPHUNTER-TRUTH: loop widget=GtkDrawingArea name=picture cause=deferred function=picture_fit_idle
/* scrollbar_flip.c — the scrollbar flip-flop.
 *
 * An image viewer shows a picture scaled to the width of a GtkScrolledWindow (vertical policy
 * AUTOMATIC, overlay scrolling off, i.e. classic scrollbars that take room), keeping the picture's
 * aspect ratio (square): after each allocation an idle sets the picture's height request to its
 * allocated width. The viewport is 4 px less tall than it is wide. Without a vertical scrollbar
 * the picture is as wide as the viewport, so it is taller than the viewport: the scrollbar shows.
 * With the scrollbar the picture is narrower by the scrollbar's width (more than 4 px), so it fits:
 * the scrollbar hides. And so on, every frame, forever.
 * The idle is added from the picture's "size-allocate" (GTK 3) or "resize" (GTK 4) signal.
 * Re-requesting function: picture_fit_idle.
 */
#include "causes.h"

#define VIEW_W 240
#define VIEW_H (VIEW_W - 4)

static GtkWidget *picture;
static guint fit_source;
static int fit_height;

/* The bug: the height follows the width, and the width follows the scrollbar. */
__attribute__((noinline)) gboolean picture_fit_idle(gpointer data) {
  (void)data;
  fit_source = 0;
  gtk_widget_set_size_request(picture, -1, fit_height);
  return G_SOURCE_REMOVE;
}

static void picture_allocated(int width) {
  fit_height = width; /* 1:1 aspect ratio */
  cause_note("picture allocated %d wide", width);
  if (!fit_source) fit_source = g_idle_add(picture_fit_idle, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_picture_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  picture_allocated(a->width);
}
#else
static void on_picture_resize(GtkDrawingArea *area, int width, int height, gpointer d) {
  (void)area, (void)height, (void)d;
  picture_allocated(width);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "scrollbar-flip");
  GtkWidget *window = cause_window_new("main-window", "scrollbar-flip", VIEW_W + 40, VIEW_H + 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *sw = cause_scrolled_new(GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_name(sw, "viewer");
  gtk_widget_set_size_request(sw, VIEW_W, VIEW_H);
  gtk_widget_set_halign(sw, GTK_ALIGN_START);
  gtk_widget_set_valign(sw, GTK_ALIGN_START);
  picture = gtk_drawing_area_new();
  gtk_widget_set_name(picture, "picture");
  gtk_widget_set_size_request(picture, -1, VIEW_W);
#if GTK_MAJOR_VERSION == 3
  g_signal_connect(picture, "size-allocate", G_CALLBACK(on_picture_size_allocate), NULL);
#else
  g_signal_connect(picture, "resize", G_CALLBACK(on_picture_resize), NULL);
#endif
  cause_set_child(sw, picture);
  cause_box_append(box, sw);
  cause_set_child(window, box);
  return cause_run();
}
