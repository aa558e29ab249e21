// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=title cause=result function=flip_text_tick
/* tick_width_flip.c — a tick callback added at start-up flipping a label's text by its own width.
 *
 * A title label shows the full title when it "has room" and an abbreviation otherwise. The app
 * checks this every frame from a tick callback it added once at start-up (no callback is born in
 * layout): it reads the label's allocated width and, when the label is wider than the midpoint
 * between the two texts' widths, switches to the short text; when narrower, to the long one. The
 * label is halign=START, so its width is its text's: each frame's layout gives the width that
 * makes the next tick pick the other text. A loop "from layout's result": the request follows what
 * the last layout produced, back and forth, every frame, forever.
 * Re-requesting function: flip_text_tick.
 */
#include "causes.h"

#define LONG_TITLE "Quarterly report — Sales, Europe and Middle East"
#define SHORT_TITLE "Q3 EMEA"

static GtkWidget *title;
static int threshold;

/* The bug: "room" is measured on the label itself, whose width the text decides. */
__attribute__((noinline)) gboolean flip_text_tick(GtkWidget *widget, GdkFrameClock *clock,
                                                   gpointer data) {
  (void)widget, (void)clock, (void)data;
#if GTK_MAJOR_VERSION == 3
  int width = gtk_widget_get_allocated_width(title);
#else
  int width = gtk_widget_get_width(title);
#endif
  if (width <= 1) return G_SOURCE_CONTINUE;
  const char *want = width >= threshold ? SHORT_TITLE : LONG_TITLE;
  if (strcmp(gtk_label_get_text(GTK_LABEL(title)), want) != 0)
    gtk_label_set_text(GTK_LABEL(title), want);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "tick-width-flip");
  GtkWidget *window = cause_window_new("main-window", "tick-width-flip", 480, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  title = gtk_label_new(LONG_TITLE);
  gtk_widget_set_name(title, "title");
  gtk_widget_set_halign(title, GTK_ALIGN_START);
  threshold = (cause_text_width(title, LONG_TITLE) + cause_text_width(title, SHORT_TITLE)) / 2;
  cause_box_append(box, title);
  cause_set_child(window, box);
  gtk_widget_add_tick_callback(title, flip_text_tick, NULL, NULL);
  return cause_run();
}
