/* widget_reuse.c — built twice, as gtk3-reuse and gtk4-reuse. A label is shown for 3 frames, then
 * destroyed, and a new label takes its place, 24 times: the allocator usually gives the new label
 * the old one's address. Each label is a counted widget (lh_gtk_truth.h) named label-N, so the
 * ground truth has one line per label, with its address. LoopHunter must count each label from
 * zero: a widget destroyed and a new one at the same address are different objects. The last
 * label stays alive until exit, so the summary shows its count, which must be its own alone.
 * Writes "<n> addresses reused" to stderr at exit (the test requires at least one). */
#include "lh_gtk_truth.h"

#define LABELS 24
#define FRAMES_PER_LABEL 3

static GtkWidget *box, *current;
static int made, frames_shown, reused;
static void *addresses[LABELS];
static gboolean done;

static void next_label(void) {
  char name[32];
  snprintf(name, sizeof name, "label-%d", made);
  current = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), name, "label", name, NULL);
  for (int i = 0; i < made; i++)
    if (addresses[i] == (void *)current) { reused++; break; }
  addresses[made++] = current;
#if GTK_MAJOR_VERSION >= 4
  gtk_box_append(GTK_BOX(box), current);
#else
  gtk_container_add(GTK_CONTAINER(box), current);
  gtk_widget_show(current);
#endif
}

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)widget;
  (void)clock;
  (void)data;
  if (++frames_shown < FRAMES_PER_LABEL) return G_SOURCE_CONTINUE;
  frames_shown = 0;
  if (made == LABELS) { /* the last label stays: LoopHunter's summary shows its own count */
    done = TRUE;
    return G_SOURCE_REMOVE;
  }
#if GTK_MAJOR_VERSION >= 4
  gtk_box_remove(GTK_BOX(box), current); /* the box held the only reference: finalized now */
#else
  gtk_widget_destroy(current);
#endif
  next_label();
  return G_SOURCE_CONTINUE;
}

int main(void) {
#if GTK_MAJOR_VERSION >= 4
  g_set_prgname("gtk4-reuse");
  gtk_init();
  GtkWidget *window = gtk_window_new();
  box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_window_set_child(GTK_WINDOW(window), box);
#else
  g_set_prgname("gtk3-reuse");
  gtk_init(NULL, NULL);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_container_add(GTK_CONTAINER(window), box);
#endif
  gtk_window_set_default_size(GTK_WINDOW(window), 200, 100);
  next_label();
  gtk_widget_add_tick_callback(window, tick, NULL, NULL);
#if GTK_MAJOR_VERSION >= 4
  gtk_window_present(GTK_WINDOW(window));
#else
  gtk_widget_show_all(window);
#endif
  while (!done) g_main_context_iteration(NULL, TRUE);
  fprintf(stderr, "%d addresses reused\n", reused);
  printf("%s: done\n", g_get_prgname());
  return lh_truth_finish();
}
