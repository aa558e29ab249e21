// LOOPHUNTER-TRUTH: healthy
/* idle.c — the baseline: a window that shows a label and does nothing.
 *
 * Not a busy program: it is here to give the corpus's CPU and frame figures a floor (one frame
 * with layout at start-up, then none) and to check that a program doing nothing gets no report.
 */
#include "causes.h"

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "idle");
  GtkWidget *window = cause_window_new("main-window", "idle", 300, 60);
  GtkWidget *label = gtk_label_new("Nothing happens here");
  gtk_widget_set_name(label, "message");
  cause_set_child(window, label);
  return cause_run();
}
