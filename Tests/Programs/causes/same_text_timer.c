// LOOPHUNTER-TRUTH: healthy
/* same_text_timer.c — a label set to the text it already shows, by a timer (outside layout).
 *
 * A status bar refreshes its message every 50 ms from the app's model, which has not changed:
 * GTK 3's gtk_label_set_text() queues a resize even for identical text; in GTK 4 (where identical
 * text is ignored) the refresh also re-applies the message's attributes, which always queues a
 * resize (the same nearest equivalent as same_text.c). 20 relayouts a second with no size change,
 * driven by the timer, not by layout: the same calls as the same-text loop, from outside. Healthy.
 */
#include "causes.h"

#define MESSAGE "All changes saved"

static GtkWidget *status;

static gboolean refresh_timeout(gpointer data) {
  (void)data;
  gtk_label_set_text(GTK_LABEL(status), MESSAGE);
#if GTK_MAJOR_VERSION == 4
  PangoAttrList *attrs = pango_attr_list_new();
  pango_attr_list_insert(attrs, pango_attr_weight_new(PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes(GTK_LABEL(status), attrs);
  pango_attr_list_unref(attrs);
#endif
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "same-text-timer");
  GtkWidget *window = cause_window_new("main-window", "same-text-timer", 300, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  status = gtk_label_new(MESSAGE);
  gtk_widget_set_name(status, "status");
  cause_box_append(box, status);
  cause_set_child(window, box);
  g_timeout_add(50, refresh_timeout, NULL);
  return cause_run();
}
