/* gtk4_healthy.c — a busy but correct GTK 4 UI: no layout feedback loop.
 *
 * What keeps it busy: a 10 Hz recording clock label whose text width changes on every tick (its
 * "REC" marker blinks: "REC 0:01.2" / "0:01.3"), a spinning GtkSpinner, a GtkProgressBar filling in steps at 10 Hz,
 * and a GtkRevealer (slide-down, 250 ms) revealed at 0.5 s and hidden again at 1.5 s. Every change
 * comes from a timer or an animation, never from layout, so no widget is laid out more than once
 * per frame, and no size changes in two consecutive frames except during the revealer's 250 ms
 * transitions (the revealer animates its own size, frame after frame, by design).
 *
 * Widgets: window "main-window" (LhWindow) > box "content" (LhBox, vertical) >
 *   [box "toolbar" (LhBox) > [spinner "spinner" (LhSpinner), label "clock" (LhLabel),
 *    progress bar "progress" (LhProgressBar)],
 *    revealer "details" (LhRevealer) > label "details-text" (LhLabel)].
 * Exits by itself after 3 s with status 0 and prints one line on stdout.
 * Ground truth (LH_GROUND_TRUTH, LH_DEBUG_FRAMES): see lh_gtk_truth.h.
 */
#include "lh_gtk_truth.h"

#define RUN_MS 3000
#define TICK_MS 100

static GtkWidget *clock_label, *progress, *revealer;
static unsigned ticks;

static gboolean tick(gpointer data) {
  (void)data;
  ticks++;
  char text[32];
  /* elapsed time with a blinking "REC" marker: every tick changes the label's width */
  snprintf(text, sizeof text, "%s%u:%02u.%u", ticks % 2 ? "REC " : "", ticks / 600, ticks / 10 % 60,
           ticks % 10);
  gtk_label_set_text(GTK_LABEL(clock_label), text);
  gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(progress), (ticks % 20) / 20.0);
  return G_SOURCE_CONTINUE;
}

static gboolean toggle_revealer(gpointer data) {
  (void)data;
  gtk_revealer_set_reveal_child(GTK_REVEALER(revealer),
                                !gtk_revealer_get_reveal_child(GTK_REVEALER(revealer)));
  return G_SOURCE_REMOVE;
}

static gboolean stop(gpointer data) {
  *(gboolean *)data = TRUE;
  g_main_context_wakeup(NULL);
  return G_SOURCE_REMOVE;
}

int main(void) {
  g_set_prgname("gtk4-healthy");
  gtk_init();
  GType box_t = lh_truth_subclass(GTK_TYPE_BOX, "LhBox");
  GType label_t = lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel");
  GtkWidget *window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window",
                                   "title", "gtk4-healthy", "default-width", 420,
                                   "default-height", 120, NULL);
  GtkWidget *content = lh_truth_new(box_t, "content", "orientation", GTK_ORIENTATION_VERTICAL,
                                    "spacing", 6, NULL);
  GtkWidget *toolbar = lh_truth_new(box_t, "toolbar", "orientation", GTK_ORIENTATION_HORIZONTAL,
                                    "spacing", 6, NULL);
  GtkWidget *spinner = lh_truth_new(lh_truth_subclass(GTK_TYPE_SPINNER, "LhSpinner"), "spinner",
                                    NULL);
  clock_label = lh_truth_new(label_t, "clock", "label", "0:00.0", "halign", GTK_ALIGN_START, NULL);
  progress = lh_truth_new(lh_truth_subclass(GTK_TYPE_PROGRESS_BAR, "LhProgressBar"), "progress",
                          "hexpand", TRUE, "valign", GTK_ALIGN_CENTER, NULL);
  revealer = lh_truth_new(lh_truth_subclass(GTK_TYPE_REVEALER, "LhRevealer"), "details",
                          "transition-type", GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN,
                          "transition-duration", 250, NULL);
  GtkWidget *details = lh_truth_new(label_t, "details-text", "label",
                                    "3 files synchronised, 0 conflicts", NULL);

  gtk_box_append(GTK_BOX(toolbar), spinner);
  gtk_box_append(GTK_BOX(toolbar), clock_label);
  gtk_box_append(GTK_BOX(toolbar), progress);
  gtk_revealer_set_child(GTK_REVEALER(revealer), details);
  gtk_box_append(GTK_BOX(content), toolbar);
  gtk_box_append(GTK_BOX(content), revealer);
  gtk_window_set_child(GTK_WINDOW(window), content);
  gtk_spinner_start(GTK_SPINNER(spinner));
  gtk_window_present(GTK_WINDOW(window));
  lh_truth_watch_frames(window);

  g_timeout_add(TICK_MS, tick, NULL);
  g_timeout_add(500, toggle_revealer, NULL);
  g_timeout_add(1500, toggle_revealer, NULL);
  gboolean done = FALSE;
  lh_truth_stop_after(RUN_MS, stop, &done);
  while (!done) g_main_context_iteration(NULL, TRUE);

  int rc = lh_truth_finish();
  printf("gtk4-healthy: done\n");
  return rc;
}
