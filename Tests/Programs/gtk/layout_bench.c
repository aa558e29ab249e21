/* layout_bench.c — built twice, as gtk3-layout-bench and gtk4-layout-bench: a layout-heavy GTK
 * program for the whole-program CPU overhead benchmark (scripts/bench/run.sh).
 *
 * A window holds a grid of ROWS x COLS cells (a box with an icon-less button and a label); on every
 * frame a tick callback gives every label a new text of a different width, so the whole window is
 * measured and allocated again in every frame (~1,000 widgets laid out per frame, a healthy program:
 * one layout pass per frame, no warning). It runs exactly LH_RUN_FRAMES frames (default 600), so
 * every run does the same work however fast it is, then exits 0 and prints
 * "<name>: done frames=<n>". */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 24
#define COLS 12

static GtkWidget *labels[ROWS * COLS];
static unsigned long frames, run_frames;
static gboolean done;

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)widget, (void)clock, (void)data;
  char text[32];
  for (int i = 0; i < ROWS * COLS; i++) {
    /* 1 to 6 digits: the width changes from frame to frame. */
    unsigned long value = (frames * 7919u + (unsigned long)i * 104729u) % 1000000u;
    snprintf(text, sizeof text, "%lu", value / (1u + (frames + (unsigned long)i) % 5u * 300u));
    gtk_label_set_text(GTK_LABEL(labels[i]), text);
  }
  if (++frames >= run_frames) {
    done = TRUE;
    g_main_context_wakeup(NULL);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

static GtkWidget *cell(int i) {
#if GTK_MAJOR_VERSION >= 4
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("x"));
  labels[i] = gtk_label_new("0");
  gtk_box_append(GTK_BOX(box), labels[i]);
#else
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_box_pack_start(GTK_BOX(box), gtk_button_new_with_label("x"), FALSE, FALSE, 0);
  labels[i] = gtk_label_new("0");
  gtk_box_pack_start(GTK_BOX(box), labels[i], FALSE, FALSE, 0);
#endif
  return box;
}

int main(int argc, char **argv) {
  const char *env = getenv("LH_RUN_FRAMES");
  run_frames = env != NULL && atol(env) > 0 ? (unsigned long)atol(env) : 600;
#if GTK_MAJOR_VERSION >= 4
  (void)argc, (void)argv;
  gtk_init();
  GtkWidget *window = gtk_window_new();
#else
  gtk_init(&argc, &argv);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
#endif
  gtk_window_set_title(GTK_WINDOW(window), "layout-bench");
  GtkWidget *grid = gtk_grid_new();
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) gtk_grid_attach(GTK_GRID(grid), cell(r * COLS + c), c, r, 1, 1);
#if GTK_MAJOR_VERSION >= 4
  gtk_window_set_child(GTK_WINDOW(window), grid);
  gtk_window_present(GTK_WINDOW(window));
#else
  gtk_container_add(GTK_CONTAINER(window), grid);
  gtk_widget_show_all(window);
#endif
  gtk_widget_add_tick_callback(window, tick, NULL, NULL);
  while (!done) g_main_context_iteration(NULL, TRUE);
  printf("gtk%d-layout-bench: done frames=%lu\n", GTK_MAJOR_VERSION, frames);
  return 0;
}
