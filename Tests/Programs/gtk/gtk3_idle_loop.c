/* gtk3_idle_loop.c — a main-loop layout feedback loop in GTK 3 (one layout per frame, forever).
 *
 * The bug: a "size-allocate" handler on a status label defers a text update to an idle
 * (g_idle_add), choosing the compact text when the label was given room for the long one. The
 * label sits in a horizontal box with halign=START, so its allocated width is the natural width of
 * its current text: wide allocation → idle sets the short text → next frame's layout gives a narrow
 * allocation → the handler schedules the long text → ... The label is allocated once per frame,
 * and its allocated SIZE changes in every consecutive frame, until the program exits. GDK never
 * warns: each frame's layout phase runs once.
 *
 * Widgets: window "main-window" (LhWindow) > box "toolbar" (LhBox) > [button, label "status"
 * (LhLabel)]. Exits by itself after 3 s with status 0 and prints one line on stdout.
 * Ground truth (LH_GROUND_TRUTH, LH_DEBUG_FRAMES): see lh_gtk_truth.h.
 */
#include "lh_gtk_truth.h"

#define SHORT_TEXT "3 files"
#define LONG_TEXT "Synchronising 3 files with the server..."
#define RUN_MS 3000

static int threshold;            /* pixel width between the two texts' widths */
static const char *pending_text; /* the text the idle will set */
static guint idle_id;

static int text_width(GtkWidget *label, const char *text) {
  PangoLayout *layout = gtk_widget_create_pango_layout(label, text);
  int w, h;
  pango_layout_get_pixel_size(layout, &w, &h);
  g_object_unref(layout);
  return w;
}

static gboolean apply_text(gpointer label) {
  idle_id = 0;
  gtk_label_set_text(GTK_LABEL(label), pending_text); /* queues a resize for the next frame */
  return G_SOURCE_REMOVE;
}

/* "size-allocate" (GTK emits it through g_signal_emit because a handler is connected). */
static void on_status_size_allocate(GtkWidget *label, GtkAllocation *allocation, gpointer data) {
  (void)data;
  const char *want = allocation->width >= threshold ? SHORT_TEXT : LONG_TEXT;
  if (strcmp(gtk_label_get_text(GTK_LABEL(label)), want) == 0) return;
  pending_text = want;
  if (!idle_id) idle_id = g_idle_add(apply_text, label);
}

static gboolean stop(gpointer data) {
  (void)data;
  gtk_main_quit();
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  gtk_init(&argc, &argv);
  GtkWidget *window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window",
                                   "title", "gtk3-idle-loop", "default-width", 420,
                                   "default-height", 60, NULL);
  GtkWidget *toolbar = lh_truth_new(lh_truth_subclass(GTK_TYPE_BOX, "LhBox"), "toolbar",
                                    "orientation", GTK_ORIENTATION_HORIZONTAL, "spacing", 6, NULL);
  GtkWidget *status = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), "status", "label",
                                   LONG_TEXT, "halign", GTK_ALIGN_START, "xalign", 0.0f, NULL);
  threshold = (text_width(status, SHORT_TEXT) + text_width(status, LONG_TEXT)) / 2;
  g_signal_connect(status, "size-allocate", G_CALLBACK(on_status_size_allocate), NULL);

  gtk_box_pack_start(GTK_BOX(toolbar), gtk_button_new_with_label("Sync"), FALSE, FALSE, 0);
  gtk_box_pack_start(GTK_BOX(toolbar), status, FALSE, FALSE, 0);
  gtk_container_add(GTK_CONTAINER(window), toolbar);
  gtk_widget_show_all(window);
  lh_truth_watch_frames(window);

  lh_truth_stop_after(RUN_MS, stop, NULL);
  gtk_main();

  if (idle_id) g_source_remove(idle_id);
  int rc = lh_truth_finish();
  printf("gtk3-idle-loop: done\n");
  return rc;
}
