// LOOPHUNTER-TRUTH: healthy
/* tick_readout.c — readouts updated every frame from a tick callback.
 *
 * A media player's position and a stopwatch: a tick callback rewrites two labels ("position",
 * "stopwatch", halign=START, proportional font) from the frame time in every frame. Their texts,
 * and so their widths, change every frame ("0:01.37", "1 min 4.016 s"), so the window is relaid out
 * every frame with new sizes, for as long as the program runs; the texts come from the clock.
 * Healthy.
 */
#include "causes.h"

static GtkWidget *position, *stopwatch;

static gboolean readout_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)widget, (void)data;
  double t = gdk_frame_clock_get_frame_time(clock) / 1e6;
  double since = cause_elapsed();
  char text[64];
  snprintf(text, sizeof text, "%d:%05.2f", (int)since / 60, since - 60 * ((int)since / 60));
  gtk_label_set_text(GTK_LABEL(position), text);
  snprintf(text, sizeof text, "%d min %.3f s (frame clock %.1f)", (int)(since / 60),
           since - 60 * (int)(since / 60), t);
  gtk_label_set_text(GTK_LABEL(stopwatch), text);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "tick-readout");
  GtkWidget *window = cause_window_new("main-window", "tick-readout", 420, 80);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 4);
  position = gtk_label_new("0:00.00");
  gtk_widget_set_name(position, "position");
  gtk_widget_set_halign(position, GTK_ALIGN_START);
  stopwatch = gtk_label_new("0 min 0.000 s");
  gtk_widget_set_name(stopwatch, "stopwatch");
  gtk_widget_set_halign(stopwatch, GTK_ALIGN_START);
  cause_box_append(box, position);
  cause_box_append(box, stopwatch);
  cause_set_child(window, box);
  gtk_widget_add_tick_callback(window, readout_tick, NULL, NULL);
  return cause_run();
}
