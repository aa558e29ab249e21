// LOOPHUNTER-TRUTH: healthy
/* textview_append.c — text appended to a GtkTextView every 10 ms.
 *
 * A build log: a 10 ms timer appends a line to a GtkTextView ("log") in a GtkScrolledWindow and
 * keeps the view scrolled to the end. The text view revalidates its lines in idles of its own
 * (some added while it is laid out) and queues resizes as the buffer grows: the window is relaid
 * out every frame for as long as text keeps coming, and only because text keeps coming. Healthy.
 */
#include "causes.h"

static GtkTextView *view;
static GtkTextMark *end_mark;
static int lines;

static gboolean append_timeout(gpointer data) {
  (void)data;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer(view);
  GtkTextIter end;
  gtk_text_buffer_get_end_iter(buffer, &end);
  char text[128];
  lines++;
  snprintf(text, sizeof text, "[%5d] CC   src/module_%d/file_%d.o  (%.2f s)\n", lines, lines % 17,
           lines % 101, cause_elapsed());
  gtk_text_buffer_insert(buffer, &end, text, -1);
  gtk_text_view_scroll_mark_onscreen(view, end_mark);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "textview-append");
  GtkWidget *window = cause_window_new("main-window", "textview-append", 480, 300);
  GtkWidget *sw = cause_scrolled_new(GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  GtkWidget *tv = gtk_text_view_new();
  gtk_widget_set_name(tv, "log");
  gtk_text_view_set_editable(GTK_TEXT_VIEW(tv), FALSE);
  gtk_text_view_set_monospace(GTK_TEXT_VIEW(tv), TRUE);
  view = GTK_TEXT_VIEW(tv);
  GtkTextIter end;
  gtk_text_buffer_get_end_iter(gtk_text_view_get_buffer(view), &end);
  end_mark = gtk_text_buffer_create_mark(gtk_text_view_get_buffer(view), "end", &end, FALSE);
  cause_set_child(sw, tv);
  cause_set_child(window, sw);
  g_timeout_add(10, append_timeout, NULL);
  return cause_run();
}
