// LOOPHUNTER-TRUTH: healthy
/* spinner_progress.c — spinners and progress bars.
 *
 * A copy dialog: a GtkSpinner spinning (GTK's CSS animation re-allocates it, or its parent in
 * GTK 4, every frame), a GtkProgressBar pulsed by a 100 ms timer, and a second progress bar whose
 * fraction and text ("37 %", varying width) a tick callback sets from the frame time every frame,
 * looping every 3 s. Everything that moves is driven by time. Healthy.
 */
#include "causes.h"
#include <math.h>

static GtkWidget *pulse_bar, *copy_bar;

static gboolean pulse_timeout(gpointer data) {
  (void)data;
  gtk_progress_bar_pulse(GTK_PROGRESS_BAR(pulse_bar));
  return G_SOURCE_CONTINUE;
}

static gboolean copy_tick(GtkWidget *bar, GdkFrameClock *clock, gpointer data) {
  (void)data;
  double t = gdk_frame_clock_get_frame_time(clock) / 1e6;
  double fraction = fmod(t, 3.0) / 3.0;
  char text[32];
  snprintf(text, sizeof text, "%d %%", (int)(fraction * 100));
  gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(bar), fraction);
  gtk_progress_bar_set_text(GTK_PROGRESS_BAR(bar), text);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "spinner-progress");
  GtkWidget *window = cause_window_new("main-window", "spinner-progress", 360, 140);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *row = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spinner = gtk_spinner_new();
  gtk_widget_set_name(spinner, "spinner");
  gtk_spinner_start(GTK_SPINNER(spinner));
  cause_box_append(row, spinner);
  cause_box_append(row, gtk_label_new("Copying 1,204 files…"));
  cause_box_append(box, row);
  pulse_bar = gtk_progress_bar_new();
  gtk_widget_set_name(pulse_bar, "pulse-bar");
  gtk_progress_bar_set_pulse_step(GTK_PROGRESS_BAR(pulse_bar), 0.1);
  cause_box_append(box, pulse_bar);
  copy_bar = gtk_progress_bar_new();
  gtk_widget_set_name(copy_bar, "copy-bar");
  gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(copy_bar), TRUE);
  cause_box_append(box, copy_bar);
  cause_set_child(window, box);
  g_timeout_add(100, pulse_timeout, NULL);
  gtk_widget_add_tick_callback(copy_bar, copy_tick, NULL, NULL);
  return cause_run();
}
