// LOOPHUNTER-TRUTH: healthy
/* kinetic_scroll.c — kinetic scrolling of a long list, driven by the program.
 *
 * A GtkListBox of 2,000 rows ("inbox") in a GtkScrolledWindow is "flung" at start-up and every
 * 1.5 s: a tick callback moves the vertical adjustment with a velocity that decays exponentially, as kinetic
 * scrolling after a touchpad swipe does (alternately down and up). Scrolling moves and, in GTK 4,
 * re-allocates the rows in every frame of the fling; the motion follows the clock only. Healthy.
 */
#include "causes.h"
#include <math.h>

#define ROWS 2000

static GtkAdjustment *vadj;
static double velocity; /* px per second */
static gint64 last_us;
static int flings;

static gboolean fling_timeout(gpointer data) {
  (void)data;
  velocity = (flings++ % 2 == 0) ? 6000.0 : -6000.0;
  return G_SOURCE_CONTINUE;
}

static gboolean kinetic_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)widget, (void)data;
  gint64 now = gdk_frame_clock_get_frame_time(clock);
  double dt = last_us ? (now - last_us) / 1e6 : 0.0;
  last_us = now;
  if (fabs(velocity) < 20.0) return G_SOURCE_CONTINUE;
  gtk_adjustment_set_value(vadj, gtk_adjustment_get_value(vadj) + velocity * dt);
  velocity *= exp(-dt / 0.325); /* deceleration, as GTK's kinetic scrolling */
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "kinetic-scroll");
  GtkWidget *window = cause_window_new("main-window", "kinetic-scroll", 360, 300);
  GtkWidget *sw = cause_scrolled_new(GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_name(sw, "scroller");
  GtkWidget *list = gtk_list_box_new();
  gtk_widget_set_name(list, "inbox");
  for (int i = 0; i < ROWS; i++) {
    char text[96];
    snprintf(text, sizeof text, "Message %d — Re: meeting notes, week %d", i + 1, i % 52 + 1);
    GtkWidget *label = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(label), 0.0f);
#if GTK_MAJOR_VERSION == 3
    gtk_container_add(GTK_CONTAINER(list), label);
#else
    gtk_list_box_append(GTK_LIST_BOX(list), label);
#endif
  }
  cause_set_child(sw, list);
  cause_set_child(window, sw);
  vadj = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(sw));
  gtk_widget_add_tick_callback(sw, kinetic_tick, NULL, NULL);
  fling_timeout(NULL);
  g_timeout_add(1500, fling_timeout, NULL);
  return cause_run();
}
