// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=status cause=deferred function=refresh_status_idle
/* same_text.c — a label re-set with the text it already shows, after every layout.
 *
 * A path bar elides the current folder's path by hand to fit the label's width (middle
 * ellipsis, keeping the file name) and highlights the file name in bold. Because GTK ignores a
 * resize queued inside size-allocate, the refresh runs in an idle added from the label's
 * allocation (GTK 3: the "size-allocate" signal; GTK 4: the app's CauseBin around the label).
 * The width never changes, so the elided text is the same every time, but:
 *   GTK 3: gtk_label_set_text() with identical text still queues a resize (gtk_label_recalculate);
 *   GTK 4: gtk_label_set_text() with identical text does nothing (4.8 compares the strings), so the
 *          nearest real equivalent is the highlight: gtk_label_set_attributes() with a fresh
 *          (equal) attribute list, which always queues a resize.
 * Either way the label is laid out again in the next frame, its size-allocate queues the idle
 * again, and the window is relaid out every frame, forever, with no size ever changing.
 * Re-requesting function: refresh_status_idle.
 */
#include "causes.h"

#define FULL_PATH "/home/ada/Projects/loophunter/Tests/Programs/causes/same_text.c"

static GtkWidget *status;
static guint refresh_source;
static int last_width = -1;

static char *elide_middle(GtkWidget *label, const char *text, int width) {
  size_t len = strlen(text);
  char *out = g_strdup(text);
  for (size_t keep = len; keep > 8; keep--) {
    PangoLayout *layout = gtk_widget_create_pango_layout(label, out);
    int w, h;
    pango_layout_get_pixel_size(layout, &w, &h);
    g_object_unref(layout);
    if (w <= width) break;
    size_t head = keep / 3, tail = keep - head;
    g_free(out);
    out = g_strdup_printf("%.*s…%s", (int)head, text, text + len - tail);
  }
  return out;
}

/* The bug: re-applies text and highlight after every layout, though neither changed. */
__attribute__((noinline)) gboolean refresh_status_idle(gpointer data) {
  (void)data;
  refresh_source = 0;
  char *text = elide_middle(status, FULL_PATH, last_width);
  cause_note("refresh: width %d, text %s", last_width,
             strcmp(text, gtk_label_get_text(GTK_LABEL(status))) ? "changed" : "identical");
  gtk_label_set_text(GTK_LABEL(status), text); /* GTK 3: queues a resize even when equal */
#if GTK_MAJOR_VERSION == 4
  PangoAttrList *attrs = pango_attr_list_new();
  PangoAttribute *bold = pango_attr_weight_new(PANGO_WEIGHT_BOLD);
  const char *slash = strrchr(text, '/');
  bold->start_index = slash ? (guint)(slash + 1 - text) : 0;
  bold->end_index = (guint)strlen(text);
  pango_attr_list_insert(attrs, bold);
  gtk_label_set_attributes(GTK_LABEL(status), attrs); /* GTK 4: always queues a resize */
  pango_attr_list_unref(attrs);
#endif
  g_free(text);
  return G_SOURCE_REMOVE;
}

static void status_allocated(int width) {
  last_width = width;
  if (!refresh_source) refresh_source = g_idle_add(refresh_status_idle, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_status_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  status_allocated(a->width);
}
#else
static void on_status_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)height, (void)d;
  status_allocated(width);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "same-text");
  GtkWidget *window = cause_window_new("main-window", "same-text", 360, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  cause_box_append(box, gtk_label_new("Folder:"));
  status = gtk_label_new(FULL_PATH);
  gtk_widget_set_name(status, "status");
  gtk_label_set_xalign(GTK_LABEL(status), 0.0f);
  /* a fixed-width slot: the label's allocation never depends on its text */
  gtk_widget_set_size_request(status, 260, -1);
#if GTK_MAJOR_VERSION == 3
  gtk_label_set_ellipsize(GTK_LABEL(status), PANGO_ELLIPSIZE_END); /* natural width ignored */
  g_signal_connect(status, "size-allocate", G_CALLBACK(on_status_size_allocate), NULL);
  cause_box_append(box, status);
#else
  gtk_label_set_ellipsize(GTK_LABEL(status), PANGO_ELLIPSIZE_END);
  GtkWidget *bin = cause_bin_new(status, on_status_bin_allocated, NULL);
  cause_box_append(box, bin);
#endif
  cause_set_child(window, box);
  return cause_run();
}
