// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=note cause=deferred function=fit_width_tick
/* wrap_width.c — a wrapping label whose width request follows its allocated height.
 *
 * A callout ("note") shows a wrapping paragraph and keeps the shape of a wide box (about 4:1):
 * after each allocation the app sets the label's width request to that ratio × its allocated
 * height. It does so on
 * the next frame: the allocation handler (GTK 3: "size-allocate"; GTK 4: the app's CauseBin)
 * adds a one-shot tick callback (gtk_widget_add_tick_callback), a common way to "defer to the next
 * frame". A narrower label wraps into more lines and is taller, which asks for a wider label,
 * which wraps into fewer lines and is shorter, which asks for a narrower one: the width alternates
 * between two values, one relayout per frame, forever. (Whether a given ratio alternates or
 * settles depends on the font; pick_ratio takes the first one that alternates with the font the
 * label will use, so the program loops on any machine.)
 * Re-requesting function: fit_width_tick.
 */
#include "causes.h"

#define NOTE_TEXT                                                                                  \
  "Your changes were saved to a local draft because the server could not be reached. They will "   \
  "be uploaded automatically as soon as the connection comes back; you can keep working in the "   \
  "meantime, nothing will be lost."

static GtkWidget *note;
static guint fit_tick;
static int want_width;
static double ratio = 4.0; /* width : height */

/* The ratio for which the width alternates depends on the font (a fixed point exists for some
 * ratios); pick the first ratio from 3:1 up, in steps of 1/8, for which this machine's font makes
 * the label alternate, from the label's own Pango layout (what GTK will measure). */
static int text_height(int width) {
  PangoLayout *layout = gtk_widget_create_pango_layout(note, NOTE_TEXT);
  pango_layout_set_width(layout, width * PANGO_SCALE);
  pango_layout_set_wrap(layout, PANGO_WRAP_WORD);
  int w, h;
  pango_layout_get_pixel_size(layout, &w, &h);
  g_object_unref(layout);
  return h;
}

static void pick_ratio(void) {
  for (double r = 3.0; r <= 12.0; r += 0.125) {
    int w = 300, prev = -1, ok = 1;
    for (int i = 0; i < 40 && ok; i++) {
      int next = (int)(r * text_height(w));
      if (next < 80 || next > 1000) ok = 0;
      prev = w;
      w = next;
    }
    if (ok && w != prev) {
      ratio = r;
      cause_note("ratio %.3f: the width alternates between %d and %d", r, prev, w);
      return;
    }
  }
}

/* The bug: width follows height, height follows width (wrapping). */
__attribute__((noinline)) gboolean fit_width_tick(GtkWidget *widget, GdkFrameClock *clock,
                                                   gpointer data) {
  (void)widget, (void)clock, (void)data;
  fit_tick = 0;
  gtk_widget_set_size_request(note, want_width, -1);
  return G_SOURCE_REMOVE;
}

static void note_allocated(int width, int height) {
  want_width = (int)(ratio * height);
  cause_note("note allocated %dx%d, asks for width %d", width, height, want_width);
  if (!fit_tick && want_width != width)
    fit_tick = gtk_widget_add_tick_callback(note, fit_width_tick, NULL, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_note_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  note_allocated(a->width, a->height);
}
#else
static void on_note_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)d;
  note_allocated(width, height);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "wrap-width");
  GtkWidget *window = cause_window_new("main-window", "wrap-width", 520, 200);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  note = gtk_label_new(NOTE_TEXT);
  gtk_widget_set_name(note, "note");
  gtk_label_set_xalign(GTK_LABEL(note), 0.0f);
  gtk_label_set_max_width_chars(GTK_LABEL(note), 1); /* natural width = the width request */
  gtk_widget_set_size_request(note, 300, -1);
  pick_ratio();
#if GTK_MAJOR_VERSION == 3
  gtk_label_set_line_wrap(GTK_LABEL(note), TRUE);
  gtk_widget_set_halign(note, GTK_ALIGN_START);
  gtk_widget_set_valign(note, GTK_ALIGN_START);
  g_signal_connect(note, "size-allocate", G_CALLBACK(on_note_size_allocate), NULL);
  cause_box_append(box, note);
#else
  gtk_label_set_wrap(GTK_LABEL(note), TRUE);
  GtkWidget *bin = cause_bin_new(note, on_note_bin_allocated, NULL);
  gtk_widget_set_halign(bin, GTK_ALIGN_START);
  gtk_widget_set_valign(bin, GTK_ALIGN_START);
  cause_box_append(box, bin);
#endif
  cause_set_child(window, box);
  return cause_run();
}
