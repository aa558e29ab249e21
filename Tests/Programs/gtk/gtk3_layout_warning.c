/* gtk3_layout_warning.c — GTK 3 warns during a widget's layout, in a message that names no widget.
 *
 * "warn-box" (LhWarnBox, a GtkBin) allocates its child a negative width in its own size_allocate:
 * GTK 3 logs "gtk_widget_size_allocate(): attempt to allocate widget with width -5 and height ..."
 * (a Gtk-WARNING naming no widget) while warn-box's layout runs. LoopHunter's toolkit-warning
 * report names warn-box as the widget being laid out when GTK warned.
 *
 * Widgets: window "main-window" (GtkWindow) > "warn-box" (LhWarnBox) > label "child" (GtkLabel).
 * Exits by itself after 1 s with status 0 and prints one line on stdout.
 */
#include <gtk/gtk.h>
#include <stdio.h>

typedef struct { GtkBin parent; } LhWarnBox;
typedef struct { GtkBinClass parent_class; } LhWarnBoxClass;
G_DEFINE_TYPE(LhWarnBox, lh_warn_box, GTK_TYPE_BIN)

static void lh_warn_box_size_allocate(GtkWidget *widget, GtkAllocation *allocation) {
  GTK_WIDGET_CLASS(lh_warn_box_parent_class)->size_allocate(widget, allocation);
  GtkWidget *child = gtk_bin_get_child(GTK_BIN(widget));
  if (child == NULL) return;
  int minimum, natural;
  gtk_widget_get_preferred_width(child, &minimum, &natural); /* measured, so GTK warns only of the size */
  GtkAllocation bad = {allocation->x, allocation->y, -5, allocation->height};
  gtk_widget_size_allocate(child, &bad);
}

static void lh_warn_box_class_init(LhWarnBoxClass *klass) {
  GTK_WIDGET_CLASS(klass)->size_allocate = lh_warn_box_size_allocate;
}

static void lh_warn_box_init(LhWarnBox *box) { (void)box; }

static gboolean stop(gpointer data) {
  (void)data;
  gtk_main_quit();
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  gtk_init(&argc, &argv);
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_widget_set_name(window, "main-window");
  gtk_window_set_default_size(GTK_WINDOW(window), 200, 60);
  GtkWidget *box = g_object_new(lh_warn_box_get_type(), NULL);
  gtk_widget_set_name(box, "warn-box");
  GtkWidget *label = gtk_label_new("warned about");
  gtk_widget_set_name(label, "child");
  gtk_container_add(GTK_CONTAINER(box), label);
  gtk_container_add(GTK_CONTAINER(window), box);
  gtk_widget_show_all(window);
  g_timeout_add(1000, stop, NULL);
  gtk_main();
  printf("gtk3-layout-warning: done\n");
  return 0;
}
