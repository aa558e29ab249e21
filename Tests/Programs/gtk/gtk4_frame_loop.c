/* gtk4_frame_loop.c — a frame-capped layout feedback loop in GTK 4.
 *
 * The bug: a status label picks its compact text when it has been given room for the long one
 * ("if it fits, make it shorter"), deciding in its own size_allocate. It sits in a horizontal box
 * with halign=START, so its allocated width is the natural width of its current text: the long text
 * gets a wide allocation → the label wants the short text → narrow allocation → long text → ...
 *
 * GTK 4.8 (like GTK 3 since 3.20) ignores a gtk_widget_queue_resize() made inside size_allocate: it
 * clears the widget's and its ancestors' alloc-needed flags when their vfuncs return. So, as real
 * code ends up doing, the label applies the text it decided on right after the layout pass, from a
 * GdkFrameClock::layout handler connected with g_signal_connect_after (it runs after GtkWindow's
 * own layout handler). gtk_label_set_text then queues a resize inside the frame's layout phase, and
 * GDK runs the layout phase again, capped at 4 passes per frame ("gdk-frame-clock: layout
 * continuously requested, giving up after 4 tries"), and asks for another frame: "status" (and its
 * ancestors) are allocated 4 times in EVERY frame until the program exits.
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
static const char *pending_text; /* decided in size_allocate, applied after the layout pass */
static GtkWidget *status;

static int text_width(GtkWidget *label, const char *text) {
  PangoLayout *layout = gtk_widget_create_pango_layout(label, text);
  int w, h;
  pango_layout_get_pixel_size(layout, &w, &h);
  g_object_unref(layout);
  return w;
}

/* Runs inside LhLabel's size_allocate, after it chained up: the program's own layout code. */
static void status_allocated(GtkWidget *label, int width, int height, gpointer data) {
  (void)height;
  (void)data;
  const char *want = width >= threshold ? SHORT_TEXT : LONG_TEXT;
  pending_text = strcmp(gtk_label_get_text(GTK_LABEL(label)), want) != 0 ? want : NULL;
}

/* GdkFrameClock::layout, after GTK's own handler: apply what size_allocate decided. */
static void after_layout_pass(GdkFrameClock *clock, gpointer data) {
  (void)clock;
  (void)data;
  if (pending_text) {
    const char *text = pending_text;
    pending_text = NULL;
    gtk_label_set_text(GTK_LABEL(status), text); /* queues a resize inside the layout phase */
  }
}

static gboolean stop(gpointer data) {
  *(gboolean *)data = TRUE;
  g_main_context_wakeup(NULL);
  return G_SOURCE_REMOVE;
}

int main(void) {
  g_set_prgname("gtk4-frame-loop");
  gtk_init();
  GtkWidget *window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window",
                                   "title", "gtk4-frame-loop", "default-width", 420,
                                   "default-height", 60, NULL);
  GtkWidget *toolbar = lh_truth_new(lh_truth_subclass(GTK_TYPE_BOX, "LhBox"), "toolbar",
                                    "orientation", GTK_ORIENTATION_HORIZONTAL, "spacing", 6, NULL);
  status = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), "status", "label",
                                   LONG_TEXT, "halign", GTK_ALIGN_START, "xalign", 0.0f, NULL);
  threshold = (text_width(status, SHORT_TEXT) + text_width(status, LONG_TEXT)) / 2;
  lh_truth_set_alloc_hook(status, status_allocated, NULL);

  gtk_box_append(GTK_BOX(toolbar), gtk_button_new_with_label("Sync"));
  gtk_box_append(GTK_BOX(toolbar), status);
  gtk_window_set_child(GTK_WINDOW(window), toolbar);
  gtk_window_present(GTK_WINDOW(window));
  lh_truth_watch_frames(window);
  g_signal_connect_after(gtk_widget_get_frame_clock(window), "layout", G_CALLBACK(after_layout_pass),
                         NULL);

  gboolean done = FALSE;
  lh_truth_stop_after(RUN_MS, stop, &done);
  while (!done) g_main_context_iteration(NULL, TRUE);

  int rc = lh_truth_finish();
  printf("gtk4-frame-loop: done\n");
  return rc;
}
