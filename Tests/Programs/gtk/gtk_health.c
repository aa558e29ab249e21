/* gtk_health.c — event-loop health bugs in a real GTK 3 or GTK 4 program (built as gtk3-health
 * and gtk4-health). `gtk[34]-health MODE`, MODE one of:
 *
 *   slow-window       a "Preferences" window whose "realize" handler (health_load_preferences)
 *                     computes 2.5 s before the window can paint its first frame;
 *   blocked-handler   a button whose "clicked" handler (health_save_clicked) sleeps 2.5 s on the
 *                     UI thread (g_usleep), clicked by a timeout at 0.5 s: the main loop stalls;
 *   dangling-timeout  a 50 ms progress timeout (g_timeout_add) whose data, a Download, is
 *                     g_free()d at 0.3 s while the timeout stays attached (health_download_done).
 *   healthy           the same window, nothing wrong;
 *   idle SECONDS      the same window, shown and left alone for SECONDS (the watchdog benchmark).
 *
 * Each exits by itself with status 0 and prints one line ("gtk[34]-health MODE: done"). The
 * callbacks never dereference freed data: the program is well-defined and prints the same with
 * and without LoopHunter.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Download {
  char url[64];
  int percent;
} Download;

static const char *mode;
static unsigned progress_ticks;

static void busy_ms(int ms) {
  gint64 until = g_get_monotonic_time() + (gint64)ms * 1000;
  while (g_get_monotonic_time() < until) {
  }
}

static void quit(void) {
#if GTK_MAJOR_VERSION == 3
  gtk_main_quit();
#else
  GListModel *windows = gtk_window_get_toplevels();
  while (g_list_model_get_n_items(windows) > 0) {
    GtkWindow *w = g_list_model_get_item(windows, 0);
    gtk_window_destroy(w);
    g_object_unref(w);
  }
#endif
}

static gboolean end(gpointer data) {
  (void)data;
  quit();
  return G_SOURCE_REMOVE;
}

/* slow-window: THE BUG, start-up work in the window's realize handler. */
__attribute__((noinline)) void health_load_preferences(GtkWidget *window, gpointer data) {
  (void)window;
  (void)data;
  busy_ms(2500);
  __asm__ volatile("" ::: "memory"); /* no tail call: this frame stays on the stack */
}

/* blocked-handler: THE BUG, a synchronous wait in a click handler. */
__attribute__((noinline)) void health_save_clicked(GtkButton *button, gpointer data) {
  (void)button;
  (void)data;
  g_usleep(2500 * 1000);
  __asm__ volatile("" ::: "memory"); /* no tail call: this frame stays on the stack */
}

static gboolean click(gpointer button) {
#if GTK_MAJOR_VERSION == 3
  gtk_button_clicked(GTK_BUTTON(button));
#else
  g_signal_emit_by_name(button, "clicked");
#endif
  return G_SOURCE_REMOVE;
}

static gboolean on_progress(gpointer data) {
  (void)data; /* a Download: freed at 0.3 s (the bug); never read here */
  progress_ticks++;
  return G_SOURCE_CONTINUE;
}

/* dangling-timeout: THE BUG, the Download freed, its progress timeout left attached. */
__attribute__((noinline)) gboolean health_download_done(gpointer data) {
  g_free(data);
  __asm__ volatile("" ::: "memory");
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "healthy";
#if GTK_MAJOR_VERSION == 3
  gtk_init(&argc, &argv);
#else
  gtk_init();
#endif
  GtkWidget *window = g_object_new(GTK_TYPE_WINDOW, "title", "Preferences", "default-width", 320,
                                   "default-height", 200, NULL);
  GtkWidget *button = gtk_button_new_with_label("Save");
#if GTK_MAJOR_VERSION == 3
  gtk_container_add(GTK_CONTAINER(window), button);
  g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
#else
  gtk_window_set_child(GTK_WINDOW(window), button);
#endif
  int run_ms = 1000;
  if (strcmp(mode, "slow-window") == 0) {
    g_signal_connect(window, "realize", G_CALLBACK(health_load_preferences), NULL);
    run_ms = 3500;
  } else if (strcmp(mode, "blocked-handler") == 0) {
    g_signal_connect(button, "clicked", G_CALLBACK(health_save_clicked), NULL);
    g_timeout_add(500, click, button);
    run_ms = 3500;
  } else if (strcmp(mode, "dangling-timeout") == 0) {
    Download *download = g_new0(Download, 1);
    g_timeout_add(50, on_progress, download);
    g_timeout_add(300, health_download_done, download);
  } else if (strcmp(mode, "idle") == 0 && argc > 2) {
    run_ms = atoi(argv[2]) * 1000;
  } else if (strcmp(mode, "healthy") != 0) {
    fprintf(stderr, "usage: %s slow-window|blocked-handler|dangling-timeout|healthy|idle SECONDS\n", argv[0]);
    return 2;
  }
  g_timeout_add(run_ms, end, NULL);
#if GTK_MAJOR_VERSION == 3
  gtk_widget_show_all(window);
  gtk_main();
#else
  gtk_window_present(GTK_WINDOW(window));
  while (g_list_model_get_n_items(gtk_window_get_toplevels()) > 0) g_main_context_iteration(NULL, TRUE);
#endif
  printf("gtk%d-health %s: done\n", GTK_MAJOR_VERSION, mode);
  return 0;
}
