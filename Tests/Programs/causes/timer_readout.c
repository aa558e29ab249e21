// LOOPHUNTER-TRUTH: healthy
/* timer_readout.c — a readout rewritten by a 16 ms timer with a text of varying width.
 *
 * A network monitor shows the current throughput ("rate", halign=START, proportional font),
 * rewritten by a 16 ms g_timeout with a value that changes every time ("12.7 MB/s", "3.04 MB/s",
 * "117 kB/s"...), so the label's width changes at nearly every frame: a relayout in nearly every
 * frame, driven by the timer. The case that a size-change-only loop detector reported as a loop.
 * Healthy.
 */
#include "causes.h"
#include <math.h>

static GtkWidget *rate;
static unsigned ticks;

static gboolean rate_timeout(gpointer data) {
  (void)data;
  ticks++;
  double t = cause_elapsed();
  double bytes = 2e6 * (1.2 + sin(t * 3.1) * cos(t * 0.7)) * (1 + (ticks % 7) * 0.13);
  char text[64];
  if (bytes > 1e6)
    snprintf(text, sizeof text, "%.*f MB/s", bytes > 1e7 ? 1 : 2, bytes / 1e6);
  else
    snprintf(text, sizeof text, "%.0f kB/s", bytes / 1e3);
  gtk_label_set_text(GTK_LABEL(rate), text);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "timer-readout");
  GtkWidget *window = cause_window_new("main-window", "timer-readout", 300, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  cause_box_append(box, gtk_label_new("Download:"));
  rate = gtk_label_new("0 kB/s");
  gtk_widget_set_name(rate, "rate");
  gtk_widget_set_halign(rate, GTK_ALIGN_START);
  cause_box_append(box, rate);
  cause_set_child(window, box);
  g_timeout_add(16, rate_timeout, NULL);
  return cause_run();
}
