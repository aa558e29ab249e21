// LOOPHUNTER-TRUTH: healthy
/* tick_scaled_anim.c — a tick callback reading a widget's width to scale a time-driven animation.
 *
 * An indeterminate "busy" bar: a 40 px thumb bounces across a track. Every frame a tick callback
 * reads the track's allocated width (it reads the layout's result!) and sets the thumb's start
 * margin to (track width − thumb width) × phase, where the phase is a triangle wave of the frame
 * time (1.6 s period). The track's width comes from the window, never from the thumb's margin, so
 * the request follows the clock, scaled by a width that stays put: a relayout every frame, not a
 * loop. Healthy.
 */
#include "causes.h"
#include <math.h>

#define THUMB 40

static GtkWidget *track, *thumb;

static gboolean bounce_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)widget, (void)data;
  double t = gdk_frame_clock_get_frame_time(clock) / 1e6;
  double phase = fabs(fmod(t / 0.8, 2.0) - 1.0); /* 1 → 0 → 1 */
#if GTK_MAJOR_VERSION == 3
  int width = gtk_widget_get_allocated_width(track);
#else
  int width = gtk_widget_get_width(track);
#endif
  if (width <= THUMB) return G_SOURCE_CONTINUE;
  gtk_widget_set_margin_start(thumb, (int)((width - THUMB) * phase));
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "tick-scaled-anim");
  GtkWidget *window = cause_window_new("main-window", "tick-scaled-anim", 360, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  cause_box_append(box, gtk_label_new("Searching…"));
  track = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_name(track, "track");
  gtk_widget_set_hexpand(track, TRUE);
  thumb = gtk_drawing_area_new();
  gtk_widget_set_name(thumb, "thumb");
  gtk_widget_set_size_request(thumb, THUMB, 8);
  gtk_widget_set_halign(thumb, GTK_ALIGN_START);
  cause_box_append(track, thumb);
#if GTK_MAJOR_VERSION == 3
  gtk_box_set_child_packing(GTK_BOX(box), track, TRUE, TRUE, 0, GTK_PACK_START);
#endif
  cause_box_append(box, track);
  cause_set_child(window, box);
  gtk_widget_add_tick_callback(track, bounce_tick, NULL, NULL);
  return cause_run();
}
