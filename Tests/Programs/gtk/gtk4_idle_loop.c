/* gtk4_idle_loop.c — a main-loop layout feedback loop in GTK 4 (one layout per frame, forever).
 *
 * The bug: a status label's size_allocate (GTK 4 has no "size-allocate" signal, so it is the
 * custom widget's vfunc) defers a text update to an idle (g_idle_add), choosing the compact text
 * when the label was given room for the long one. The label sits in a horizontal box with
 * halign=START, so its allocated width is the natural width of its current text: wide allocation →
 * idle sets the short text → next frame's layout gives a narrow allocation → size_allocate
 * schedules the long text → ... The label is allocated once per frame, and its allocated SIZE
 * changes in every consecutive frame, until the program exits. GDK never warns: each frame's layout
 * phase runs once.
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

/* Runs inside LhLabel's size_allocate vfunc, after it chained up: the program's own code. */
static void status_allocated(GtkWidget *label, int width, int height, gpointer data) {
  (void)height;
  (void)data;
  const char *want = width >= threshold ? SHORT_TEXT : LONG_TEXT;
  if (strcmp(gtk_label_get_text(GTK_LABEL(label)), want) == 0) return;
  pending_text = want;
  if (!idle_id) idle_id = g_idle_add(apply_text, label);
}

static gboolean stop(gpointer data) {
  *(gboolean *)data = TRUE;
  g_main_context_wakeup(NULL);
  return G_SOURCE_REMOVE;
}

int main(void) {
  g_set_prgname("gtk4-idle-loop");
  gtk_init();
  GtkWidget *window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window",
                                   "title", "gtk4-idle-loop", "default-width", 420,
                                   "default-height", 60, NULL);
  GtkWidget *toolbar = lh_truth_new(lh_truth_subclass(GTK_TYPE_BOX, "LhBox"), "toolbar",
                                    "orientation", GTK_ORIENTATION_HORIZONTAL, "spacing", 6, NULL);
  GtkWidget *status = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), "status", "label",
                                   LONG_TEXT, "halign", GTK_ALIGN_START, "xalign", 0.0f, NULL);
  threshold = (text_width(status, SHORT_TEXT) + text_width(status, LONG_TEXT)) / 2;
  lh_truth_set_alloc_hook(status, status_allocated, NULL);

  gtk_box_append(GTK_BOX(toolbar), gtk_button_new_with_label("Sync"));
  gtk_box_append(GTK_BOX(toolbar), status);
  gtk_window_set_child(GTK_WINDOW(window), toolbar);
  gtk_window_present(GTK_WINDOW(window));
  lh_truth_watch_frames(window);

  gboolean done = FALSE;
  lh_truth_stop_after(RUN_MS, stop, &done);
  while (!done) g_main_context_iteration(NULL, TRUE);

  if (idle_id) g_source_remove(idle_id);
  int rc = lh_truth_finish();
  printf("gtk4-idle-loop: done\n");
  return rc;
}
