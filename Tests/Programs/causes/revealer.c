// LOOPHUNTER-TRUTH: healthy
/* revealer.c — a GtkRevealer sliding back and forth.
 *
 * A "details" panel slides down and up: a 600 ms timer flips the GtkRevealer's reveal-child, and
 * each 500 ms slide-down/up transition relays out the window in every frame of the transition
 * (GTK's own tick callback on the revealer), then the window rests ~100 ms. The revealer's
 * position follows the transition's clock, never the layout's result. Healthy.
 */
#include "causes.h"

static GtkWidget *revealer;

static gboolean toggle_timeout(gpointer data) {
  (void)data;
  gtk_revealer_set_reveal_child(GTK_REVEALER(revealer),
                                !gtk_revealer_get_reveal_child(GTK_REVEALER(revealer)));
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "revealer");
  GtkWidget *window = cause_window_new("main-window", "revealer", 360, 220);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  cause_box_append(box, gtk_label_new("Download finished: report.pdf (2.4 MB)"));
  revealer = gtk_revealer_new();
  gtk_widget_set_name(revealer, "details");
  gtk_revealer_set_transition_type(GTK_REVEALER(revealer),
                                   GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
  gtk_revealer_set_transition_duration(GTK_REVEALER(revealer), 500);
  GtkWidget *details = gtk_label_new("Saved to ~/Downloads\nSource: example.org\nChecksum OK\n"
                                     "Opened 0 times");
  cause_set_child(revealer, details);
  cause_box_append(box, revealer);
  cause_box_append(box, gtk_button_new_with_label("Open"));
  cause_set_child(window, box);
  g_timeout_add(600, toggle_timeout, NULL);
  return cause_run();
}
