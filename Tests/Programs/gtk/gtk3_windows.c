/* gtk3_windows.c — gtk3-windows: windows for the summary's window list (WindowListTests).
 *
 *   gtk3-windows hidden   the main window; 40 menus (each has a popup window from its creation);
 *                         300 windows made and never shown (as applications build their dialogs
 *                         from UI files at start-up); after 300 ms a dialog titled "Open" run with
 *                         gtk_dialog_run (GTK shows it from inside itself), answered once painted
 *   gtk3-windows many     the main window, then 270 windows each shown and destroyed at once
 *
 * Exits after ~1.5 s with status 0 and prints "gtk3-windows: done". */
#include <gtk/gtk.h>
#include <string.h>

static GtkWidget *main_window;

static gboolean quit(gpointer data) {
  (void)data;
  gtk_main_quit();
  return G_SOURCE_REMOVE;
}

static void answered_after_paint(GdkFrameClock *clock, gpointer dialog) {
  g_signal_handlers_disconnect_by_func(clock, answered_after_paint, dialog);
  gtk_dialog_response(GTK_DIALOG(dialog), GTK_RESPONSE_CANCEL);
}

static void dialog_realized(GtkWidget *dialog, gpointer data) {
  (void)data;
  GdkFrameClock *clock = gtk_widget_get_frame_clock(dialog);
  g_signal_connect_after(clock, "after-paint", G_CALLBACK(answered_after_paint), dialog);
}

static gboolean open_dialog(gpointer data) {
  (void)data;
  GtkWidget *dialog = gtk_dialog_new_with_buttons("Open", GTK_WINDOW(main_window), GTK_DIALOG_MODAL, "_Cancel",
                                                  GTK_RESPONSE_CANCEL, NULL);
  g_signal_connect(dialog, "realize", G_CALLBACK(dialog_realized), NULL);
  gtk_dialog_run(GTK_DIALOG(dialog));
  gtk_widget_destroy(dialog);
  return G_SOURCE_REMOVE;
}

static gboolean show_many(gpointer data) {
  (void)data;
  for (int i = 0; i < 270; i++) {
    GtkWidget *w = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(w), 10, 10);
    gtk_widget_show(w);
    gtk_widget_destroy(w);
  }
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  gtk_init(&argc, &argv);
  const char *mode = argc > 1 ? argv[1] : "hidden";
  main_window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title(GTK_WINDOW(main_window), "main");
  gtk_window_set_default_size(GTK_WINDOW(main_window), 200, 100);
  gtk_container_add(GTK_CONTAINER(main_window), gtk_label_new("windows"));
  gtk_widget_show_all(main_window);
  if (strcmp(mode, "hidden") == 0) {
    for (int i = 0; i < 40; i++) {
      GtkWidget *menu = gtk_menu_new();
      gtk_menu_shell_append(GTK_MENU_SHELL(menu), gtk_menu_item_new_with_label("item"));
      g_object_ref_sink(menu); /* kept, as a menu bar keeps its menus */
    }
    for (int i = 0; i < 300; i++) g_object_ref_sink(gtk_window_new(GTK_WINDOW_TOPLEVEL));
    g_timeout_add(300, open_dialog, NULL);
  } else {
    g_timeout_add(100, show_many, NULL);
  }
  g_timeout_add(1500, quit, NULL);
  gtk_main();
  printf("gtk3-windows: done\n");
  return 0;
}
