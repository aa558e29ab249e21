// LOOPHUNTER-TRUTH: loop widget=GtkDrawingArea name=meter cause=result function=jitter_sync_timeout
/* jitter.c — a ±1 px jitter.
 *
 * A level meter snaps its width to whole "device pixels" from a 16 ms timer that keeps the meter in
 * sync with the audio engine: it reads the meter's allocated width and sets the width request to
 * the snapped value. The snapping has an off-by-one bug (odd widths are rounded up, even widths
 * are rounded down, where even widths should have been left alone), so the request is always the
 * allocation ± 1: 200 → 199 → 200 → 199 ... A loop from layout's result: the request follows what
 * the last layout produced, and the meter is relaid out at every timer tick, forever.
 * Re-requesting function: jitter_sync_timeout.
 */
#include "causes.h"

static GtkWidget *meter;

/* The bug: the snap rounds the wrong way for even widths. */
__attribute__((noinline)) gboolean jitter_sync_timeout(gpointer data) {
  (void)data;
  int width = gtk_widget_get_allocated_width(meter);
  if (width <= 1) return G_SOURCE_CONTINUE;
  int snapped = (width % 2) ? width + 1 : width - 1;
  gtk_widget_set_size_request(meter, snapped, 24);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "jitter");
  GtkWidget *window = cause_window_new("main-window", "jitter", 320, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  cause_box_append(box, gtk_label_new("Level"));
  meter = gtk_drawing_area_new();
  gtk_widget_set_name(meter, "meter");
  gtk_widget_set_size_request(meter, 200, 24);
  gtk_widget_set_halign(meter, GTK_ALIGN_START);
  cause_box_append(box, meter);
  cause_set_child(window, box);
  g_timeout_add(16, jitter_sync_timeout, NULL);
  return cause_run();
}
