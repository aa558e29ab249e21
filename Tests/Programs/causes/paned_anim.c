// LOOPHUNTER-TRUTH: healthy
/* paned_anim.c — a GtkPaned whose position a tick callback animates.
 *
 * A sidebar "slides" open and closed: a tick callback sets the GtkPaned "splitter"'s position to
 * 160 + 100·sin(2π·t / 2 s) from the frame time. The position changes every frame, so both panes
 * are relaid out every frame with new sizes, for as long as the program runs; but each position
 * comes from the clock, never from what the layout produced. Healthy.
 */
#include "causes.h"
#include <math.h>

static gboolean slide_tick(GtkWidget *paned, GdkFrameClock *clock, gpointer data) {
  (void)data;
  double t = gdk_frame_clock_get_frame_time(clock) / 1e6;
  gtk_paned_set_position(GTK_PANED(paned), 160 + (int)(100 * sin(t * 2 * G_PI / 2.0)));
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "paned-anim");
  GtkWidget *window = cause_window_new("main-window", "paned-anim", 480, 240);
  GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_name(paned, "splitter");
  GtkWidget *side = gtk_label_new("Folders\nInbox\nSent\nDrafts\nArchive");
  GtkWidget *main_pane = gtk_label_new("Select a message to read it.");
#if GTK_MAJOR_VERSION == 3
  gtk_paned_pack1(GTK_PANED(paned), side, FALSE, FALSE);
  gtk_paned_pack2(GTK_PANED(paned), main_pane, TRUE, FALSE);
#else
  gtk_paned_set_start_child(GTK_PANED(paned), side);
  gtk_paned_set_end_child(GTK_PANED(paned), main_pane);
  gtk_paned_set_shrink_start_child(GTK_PANED(paned), FALSE);
#endif
  cause_set_child(window, paned);
  gtk_widget_add_tick_callback(paned, slide_tick, NULL, NULL);
  return cause_run();
}
